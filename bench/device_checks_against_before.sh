#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before a change as
# device-carry/bin/dambreak_before: every CUDA test of the carried executables (gpu-tests.txt,
# logs in gpu-tests/), then gauges.csv of DamBreak against the build before, byte for byte, under
# DBC and mDBC (gauges-dbc.txt, gauges-mdbc.txt), all in $OUT. Each step has a time limit
# (TESTS_LIMIT for the tests, default 300 s), so that a hang still leaves the rest.
set -uo pipefail
source bench/device_env.sh
timeout "${TESTS_LIMIT:-300}" bash bench/device_gpu_tests.sh > "$out/gpu-tests.txt" 2>&1
echo "gpu tests: exit $?"; grep -E "exit|FAILED" "$out/gpu-tests.txt"
timeout 150 bash bench/device_gauges_against_before.sh > "$out/gauges-dbc.txt" 2>&1
cat "$out/gauges-dbc.txt"
OUT=$out/mdbc GAUGE_OPTIONS="--boundary mdbc" timeout 150 \
  bash bench/device_gauges_against_before.sh > "$out/gauges-mdbc.txt" 2>&1
cat "$out/gauges-mdbc.txt"
