#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the CUDA tests of every
# test executable carried (the CUDA instances of the tests written for every back end, named
# .../Cuda, and the CUDA-only ones: suites Cuda*, tests naming Gpu), then a
# traced DamBreak run on two devices (two GPUs where there are two, else two devices sharing GPU 0)
# with validation/trace_overlap.py's figures (bench/series_run.sh, into $OUT/checks/trace/runs/).
# CHECK_SHARED_POOL=1 adds a DamBreak of 219 M particles on two devices sharing GPU 0 (each sized
# for all of them would need 77 GB, more than half the GPU: they must split its free memory).
# Everything goes to $OUT/checks/.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/device-carry/lib
bin=$PWD/device-carry/bin
out=${OUT:-/tmp/out}/checks
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
for exe in "$bin"/test_*; do
  test=$(basename "$exe")
  "$exe" --gtest_filter='*Cuda*:*Gpu*' > "$out/$test.log" 2>&1
  echo "$test: exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$test.log"
done
gpus=$(nvidia-smi -L | wc -l)
devices=0,0
[ "$gpus" -ge 2 ] && devices=0,1
source bench/series_run.sh
series_run "$out/trace" "$devices" on 100:130 "$bin/dambreak" --dp 0.01 --t-end 0.05
if [ "${CHECK_SHARED_POOL:-0}" = 1 ]; then
  mkdir -p "$out/shared-pool"
  cmd=("$bin/dambreak" --backend cuda --devices 0,0 --dp 0.0015 --t-end 0.0001 --no-output
       --output-dir "$out/shared-pool")
  { echo "\$ ${cmd[*]}"; "${cmd[@]}"; echo "# exit code $?"; } > "$out/shared-pool/console.log" 2>&1
  tail -n 30 "$out/shared-pool/console.log"
fi
