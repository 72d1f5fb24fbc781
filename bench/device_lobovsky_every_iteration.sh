#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: Lobovsky (validation/lobovsky.py, mDBC, free-slip)
# with a gauge row at every iteration (--gauge-every 1e-7 s, below any time step) instead of every
# 0.5 ms, at the dps in DPS (default 0.0025,0.005): does reading the pressures only at 0.5 ms marks
# (a point sample of a signal that changes at every step) alias the impact peaks that the 220 Hz
# filter then keeps? Runs only; the metrics come from --from-output where numpy is. In
# $OUT/lobovsky-every-iteration.tgz.
set -uo pipefail
source bench/device_env.sh
work_in lobovsky-every-iteration
start=$SECONDS
timeout "${RUN_LIMIT:-560}" python3 validation/lobovsky.py --build-dir device-carry --backend cuda \
  --runs-only --dp "${DPS:-0.0025,0.005}" --gauge-every 1e-7 --out "$work/every-iteration" \
  -- --slip free-slip > "$work/every-iteration.log" 2>&1
echo "every-iteration: exit $? in $((SECONDS - start)) s"
grep -h "time loop" "$work"/every-iteration/runs/*/console.log
tar cf - -C "$work" . | xz -T0 -6 > "$R/lobovsky-every-iteration.tar.xz"
