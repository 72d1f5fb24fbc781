#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the checkpoint tests'
# CUDA instances (restart bitwise on --devices 0 and 0,0, and across the two), then the cost of
# checkpoints at DamBreak scale: a run to CHECKPOINT_T_END with a checkpoint every
# CHECKPOINT_EVERY simulated seconds (the log gives each one's size and write time, the report
# their total against the loop), and a restart from the newest (its read time is in the log),
# on to RESTART_T_END. Logs in $OUT/checkpoint/.
set -uo pipefail
source bench/device_env.sh
out=$out/checkpoint
mkdir -p "$out"
dp=${CHECKPOINT_DP:-0.006}
"$bin"/test_checkpoint --gtest_filter='*Cuda*:RestartProgram.*' > "$out/test_checkpoint.log" 2>&1
echo "test_checkpoint: exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED|  OK) ' "$out/test_checkpoint.log"
run=/tmp/checkpoint-run
rm -rf "$run"
"$bin"/dambreak --backend cuda --dp "$dp" --t-end "${CHECKPOINT_T_END:-0.05}" --no-frames \
  --output-dir "$run" --checkpoint-every "${CHECKPOINT_EVERY:-0.01}" > "$out/first.log" 2>&1
echo "first run: exit $?"
cp "$run/run_report.json" "$out/first_report.json"
"$bin"/dambreak --backend cuda --dp "$dp" --t-end "${RESTART_T_END:-0.06}" --no-frames \
  --output-dir "$run" --restart latest > "$out/restart.log" 2>&1
echo "restart: exit $?"
ls -l "$run" "$run/checkpoints" > "$out/files.txt"
cp "$run/run_report.json" "$out/restart_report.json"
grep -E "checkpoint|restarting|mips|time loop|particles" "$out/first.log" "$out/restart.log"
