#!/usr/bin/env bash
# Runs on a machine with two GPUs, over device-carry/: the validation cases with --gpus 0,1 (each
# case's runs shared out over the GPUs, one run on each at a time; coarse spacings, runs only),
# the GPU each run reports; then DamBreak on CUDA stopped by SIGTERM and restarted, whose report
# breaks down its own time loop since the restart. In $OUT/validation-gpus.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in validation-gpus
start=$SECONDS
timeout 300 python3 validation/run_validation.py --build-dir device-carry --backend cuda \
  --runs-only --gpus 0,1 --spheric-dp 0.04,0.03,0.02 --lobovsky-dp 0.02,0.015,0.01 \
  --collapse-dp 0.05 --hydrostatic-dp 0.05 --out "$work/validation" > "$work/validation.log" 2>&1
echo "run_validation.py --gpus 0,1: exit $? in $((SECONDS - start)) s"
python3 - "$work/validation" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*/runs/*/run_report.json")):
    with open(path) as f:
        r = json.load(f)
    print(f"{path[len(sys.argv[1]) + 1:]}: {r['device']}, time loop {r['wall_time_s']['time_loop']:.1f} s")
PY
run=$work/restart
timeout -s TERM 10 "$bin/dambreak" --backend cuda --dp 0.01 --t-end 2 --no-frames \
  --output-dir "$run" > "$work/restart-first.log" 2>&1
echo "stopped by SIGTERM: exit $?"
"$bin/dambreak" --backend cuda --dp 0.01 --t-end 2 --no-frames --output-dir "$run" \
  --restart latest > "$work/restart-second.log" 2>&1
echo "restarted: exit $?"
grep -E "restarting|wall time|throughput|time loop per|other|BuildNeibs|Forces  " "$work/restart-second.log"
rm -rf "$run/checkpoints"
tar cf - -C "$work" . | xz -T0 -6 > "$R/validation-gpus.tar.xz"
