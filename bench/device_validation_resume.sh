#!/usr/bin/env bash
# Runs on a machine with two GPUs, over device-carry/: a validation case stopped by `timeout` and
# taken up with --resume. Lobovsky at dp 0.01 and 0.005 m with --gpus 0,1 under `timeout 15`
# (dp 0.01 finishes, dp 0.005 stops with a checkpoint), then the same command with --resume (dp
# 0.01 kept, dp 0.005 restarted); then dp 0.005 straight, whose gauges the resumed run's should
# equal to the byte. In $OUT/validation-resume.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in validation-resume
# The case is `timeout`'s own child: it waits for the simulators' checkpoints before it ends.
case=(python3 validation/lobovsky.py --build-dir device-carry --backend cuda --runs-only)
timeout 15 "${case[@]}" --gpus 0,1 --dp 0.01,0.005 --out "$work/lobovsky" \
  -- --slip free-slip > "$work/first.log" 2>&1
echo "under timeout 15: exit $?"
"${case[@]}" --gpus 0,1 --dp 0.01,0.005 --out "$work/lobovsky" --resume \
  -- --slip free-slip > "$work/resumed.log" 2>&1
echo "--resume: exit $?"
grep -h "kept:\|restarting from" "$work/resumed.log" "$work"/lobovsky/runs/*/console.log
"${case[@]}" --gpus 0 --dp 0.005 --out "$work/straight" -- --slip free-slip \
  > "$work/straight.log" 2>&1
echo "straight dp 0.005: exit $?"
for f in gauges.csv gauges_filtered.csv gauges_peaks.csv; do
  cmp "$work/lobovsky/runs/dp0.005/$f" "$work/straight/runs/dp0.005/$f" &&
    echo "$f: the resumed run's the same bytes as the straight run's"
done
find "$work" -name checkpoints -type d -exec rm -rf {} +
tar cf - -C "$work" . | xz -T0 -6 > "$R/validation-resume.tar.xz"
