#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: the hydrostatic tank (validation/hydrostatic.py, H /
# dp 40) run longer, so that its second half reads the settled water: --boundary mdbc to 3 and
# 4 s, DBC to 4 s (runs only; the metrics come from --from-output where numpy is). In
# $OUT/hydrostatic-settled.tgz.
set -uo pipefail
source bench/device_env.sh
work_in hydrostatic-settled
for run in "mdbc-t3:3:mdbc" "mdbc-t4:4:mdbc" "dbc-t4:4:dbc"; do
  IFS=: read -r name t_end boundary <<< "$run"
  timeout 200 python3 validation/hydrostatic.py --exe "$bin/still_water" --backend cuda \
    --dp 0.0125 --t-end "$t_end" --runs-only --out "$work/$name" -- --boundary "$boundary" \
    > "$work/$name.log" 2>&1
  echo "$name: exit $?"
done
tar czf "$R/hydrostatic-settled.tgz" -C "$work" .
