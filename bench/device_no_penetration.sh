#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), two GPUs: the CUDA tests,
# then --no-penetration (kernels/wall_contact.h) where spray meets walls. GPU 0: SPHERIC test 2 at
# dp 0.01 m to 6 s with it, as the runs without it in
# bench/results/2026-11-30-h200x2-rebuilds-and-spray/ (rb-on/), then Lobovsky at dp 0.0025 m
# with it; GPU 1: the same Lobovsky without it. Lobovsky's walls: only the floor drags. Into
# $OUT/tests.tgz (the tests) and $OUT/ensemble.tgz (bench/device_ensemble.sh's folders).
set -uo pipefail
source bench/device_env.sh
work_in np-tests
timeout 150 bash bench/device_gpu_tests.sh > "$work/summary.txt" 2>&1
echo "tests: exit $?" >> "$work/summary.txt"
tar czf "$R/tests.tgz" -C "$work" .
grep -E ": exit|FAILED" "$work/summary.txt"
grep -h "deepest" "$work"/gpu-tests/test_wall_contact.log
SPH=--boundary_mdbc_--slip_free-slip_--gradient-correction_on_--alpha_0.01
FLOOR=--slip_problem_--free-slip-walls_sides,upstream,downstream
OUT=$R GPUS=0,1 CASE_LIMIT=${CASE_LIMIT:-360} T_END_lobovsky=1.1 MEMBERS="\
sph-np:spheric_dambreak:dambreak:0.01:0:${SPH}_--no-penetration_on \
lob-off:lobovsky:lobovsky:0.0025:0:$FLOOR \
lob-np:lobovsky:lobovsky:0.0025:0:${FLOOR}_--no-penetration_on" bash bench/device_ensemble.sh
grep -hE "time loop|rebuilds  |left domain|throughput" /tmp/ensemble/*/runs/*/console.log
