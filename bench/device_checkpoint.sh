#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the checkpoint tests'
# CUDA instances (test_restart since the tests were split; restart bitwise on --devices 0 and
# 0,0, and across the two), then the cost of
# checkpoints at DamBreak scale: a run to CHECKPOINT_T_END with a checkpoint every
# CHECKPOINT_EVERY simulated seconds (the log gives each one's size and write time, the report
# their total against the loop), and a restart from the newest (its read time is in the log),
# on to RESTART_T_END on RESTART_DEVICES (default 0,0: two devices sharing the GPU), and the
# same run straight to RESTART_T_END on one device: their gauges.csv must be the same bytes.
# Logs in $OUT/checkpoint/.
set -uo pipefail
source bench/device_env.sh
out=$out/checkpoint
mkdir -p "$out"
dp=${CHECKPOINT_DP:-0.006}
"$bin"/test_restart --gtest_filter='*Cuda*:RestartProgram.*' > "$out/test_restart.log" 2>&1
echo "test_restart: exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED|  OK) ' "$out/test_restart.log"
run=/tmp/checkpoint-run
rm -rf "$run"
"$bin"/dambreak --backend cuda --dp "$dp" --t-end "${CHECKPOINT_T_END:-0.05}" --no-frames \
  --output-dir "$run" --checkpoint-every "${CHECKPOINT_EVERY:-0.01}" > "$out/first.log" 2>&1
echo "first run: exit $?"
cp "$run/run_report.json" "$out/first_report.json"
"$bin"/dambreak --backend cuda --dp "$dp" --t-end "${RESTART_T_END:-0.06}" --no-frames \
  --devices "${RESTART_DEVICES:-0,0}" --output-dir "$run" --restart latest > "$out/restart.log" 2>&1
echo "restart: exit $?"
straight=/tmp/checkpoint-straight
rm -rf "$straight"
"$bin"/dambreak --backend cuda --dp "$dp" --t-end "${RESTART_T_END:-0.06}" --no-frames \
  --output-dir "$straight" > "$out/straight.log" 2>&1
echo "straight: exit $?"
if cmp "$run/gauges.csv" "$straight/gauges.csv"; then
  echo "gauges.csv: the restarted run's equals the straight run's, byte for byte ($(wc -l < "$straight/gauges.csv") lines)"
else
  echo "gauges.csv: DIFFERENT"
fi
ls -l "$run" "$run/checkpoints" > "$out/files.txt"
cp "$run/run_report.json" "$out/restart_report.json"
grep -E "checkpoint|restarting|mips|time loop|DamBreak:" "$out/first.log" "$out/restart.log" "$out/straight.log"
