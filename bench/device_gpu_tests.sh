#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the CUDA instances of
# every carried test executable (--gtest_filter='*Cuda*:*Gpu*'), logs in $OUT/gpu-tests/.
set -uo pipefail
source bench/device_env.sh
out=$out/gpu-tests
mkdir -p "$out"
for exe in "$bin"/test_*; do
  test=$(basename "$exe")
  "$exe" --gtest_filter='*Cuda*:*Gpu*' > "$out/$test.log" 2>&1
  echo "$test: exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$test.log"
done
grep -h "CPU vs CUDA\|mDBC\|CPU devices\|--devices" "$out"/test_*.log
