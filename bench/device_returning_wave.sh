#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: what moves SPHERIC test 2's returning waves (late by
# 0.14-0.18 s at dp 0.01 m under mDBC with free-slip walls, validation/README.md). The case
# (validation/spheric_dambreak.py, runs only) at DP (default 0.02 m) under mDBC, free-slip, with one
# option changed at a time: VARIANTS, "name:options" entries. In $OUT/returning-wave.tgz; the
# metrics come from --from-output where numpy is.
set -uo pipefail
source bench/device_env.sh
work_in returning-wave
variants=${VARIANTS:-"base: alpha0.01:--alpha_0.01 delta0.05:--delta_0.05 delta0.2:--delta_0.2 c0x40:--c0-factor_40 cfl0.1:--cfl_0.1"}
for v in $variants; do
  name=${v%%:*}; options=${v#*:}; options=${options//_/ }
  # shellcheck disable=SC2086
  timeout "${RUN_LIMIT:-120}" python3 validation/spheric_dambreak.py --exe "$bin/dambreak" \
    --backend cuda --dp "${DP:-0.02}" --runs-only --out "$work/$name" -- --boundary mdbc \
    --slip free-slip $options > "$work/$name.log" 2>&1
  echo "$name ($options): exit $?"; grep -h "wall time" "$work/$name"/runs/*/console.log 2>/dev/null
done
tar czf "$R/returning-wave.tgz" -C "$work" .
