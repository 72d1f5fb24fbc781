#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the GPU tests, then a
# traced DamBreak run on two devices (two GPUs where there are two, else two devices sharing GPU 0)
# with validation/trace_overlap.py's figures. Everything goes to $OUT/checks/.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/device-carry/lib
bin=$PWD/device-carry/bin
out=${OUT:-/tmp/out}/checks
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
for test in test_cuda test_cuda_multi_device; do
  "$bin/$test" > "$out/$test.log" 2>&1
  echo "$test: exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$test.log"
done
gpus=$(nvidia-smi -L | wc -l)
devices=0,0
[ "$gpus" -ge 2 ] && devices=0,1
run=$out/trace-devices-${devices//,/-}
mkdir -p "$run"
cmd=("$bin/dambreak" --backend cuda --devices "$devices" --dp 0.01 --t-end 0.05 --no-output
     --output-dir "$run" --trace "$run/trace.json" --trace-iterations 100:130)
{ echo "\$ ${cmd[*]}"; "${cmd[@]}"; echo "# exit code $?"; } > "$run/console.log" 2>&1
tail -n 30 "$run/console.log"
python3 validation/trace_overlap.py "$run/trace.json" --json "$run/overlap.json" | tee "$run/overlap.txt"
