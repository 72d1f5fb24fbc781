#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: the hydrostatic tank (validation/hydrostatic.py,
# H / dp 40, mDBC) with the walls' viscous term as the other validation cases run it
# (--slip free-slip) against the tank's own no-slip walls, 4 s and 8 s (or TANK_VARIANTS); runs
# only, the metrics come from --from-output where numpy is. In $OUT/tank-slip.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in tank-slip
# TANK_VARIANTS: "name:t_end:options" entries (options' words joined by spaces).
variants=${TANK_VARIANTS:-"free-slip-t4:4:--slip free-slip|free-slip-t8:8:--slip free-slip|no-slip-t8:8:--slip no-slip"}
IFS='|' read -r -a entries <<< "$variants"
for v in "${entries[@]}"; do
  IFS=: read -r name t_end options <<< "$v"
  start=$SECONDS
  # shellcheck disable=SC2086  # the options are words
  timeout 240 python3 validation/hydrostatic.py --exe "$bin/still_water" --backend cuda \
    --dp 0.0125 --t-end "$t_end" --runs-only --out "$work/$name" -- --boundary mdbc $options \
    > "$work/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s"
done
tar cf - -C "$work" . | xz -T0 -6 > "$R/tank-slip.tar.xz"
