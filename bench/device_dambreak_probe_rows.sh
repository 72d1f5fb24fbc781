#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: DamBreak's obstacle probes P1-P8 read three ways,
# dp 0.01 m, mDBC, free-slip, to 1.2 s (the first impact on the obstacle and after), each with
# the 220 Hz filter Lobovsky's case uses: a row of readings every 0.5 ms (points), a row of means
# every 0.5 ms (--gauge-average), and a row at every iteration (--gauge-every 1e-7, the
# reference). In $OUT/probe-rows.tar.xz; compared where numpy is.
set -uo pipefail
source bench/device_env.sh
work_in probe-rows
for run in points:0.0005: means:0.0005:--gauge-average every-iteration:1e-7:; do
  IFS=: read -r name every extra <<< "$run"
  start=$SECONDS
  # shellcheck disable=SC2086
  timeout 150 "$bin/dambreak" --backend cuda --dp 0.01 --t-end 1.2 --boundary mdbc \
    --slip free-slip --no-frames --gauge-every "$every" $extra --gauge-filter 220 \
    --output-dir "$work/$name" > "$work/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/$name.log")"
done
tar cf - -C "$work" . | xz -T0 -6 > "$R/probe-rows.tar.xz"
