#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: Lobovsky (validation/lobovsky.py, mDBC, free-slip)
# with the speed of sound at several multiples of sqrt(g H) (C0_VARIANTS, "name:dp:factor"
# entries), to see how the pressure's slow ringing after the impact (the water layer's acoustic
# mode) follows c0. CASE_OPTIONS: further options of the case for every run (e.g. "--t-end 0.6":
# up to the first impact's peaks only). Runs only: the metrics come from --from-output where numpy is. In
# $OUT/lobovsky-c0.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in lobovsky-c0
variants=${C0_VARIANTS:-"dp0.005-c0x20:0.005:20|dp0.005-c0x40:0.005:40|dp0.005-c0x60:0.005:60"}
IFS='|' read -r -a entries <<< "$variants"
for v in "${entries[@]}"; do
  IFS=: read -r name dp factor <<< "$v"
  start=$SECONDS
  # shellcheck disable=SC2086  # CASE_OPTIONS holds words
  timeout "${RUN_LIMIT:-200}" python3 validation/lobovsky.py --build-dir device-carry \
    --backend cuda --runs-only --dp "$dp" ${CASE_OPTIONS:-} --out "$work/$name" \
    -- --slip free-slip --c0-factor "$factor" > "$work/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s"
  grep -h "time loop" "$work/$name"/runs/*/console.log
done
tar cf - -C "$work" . | xz -T0 -6 > "$R/lobovsky-c0.tar.xz"
