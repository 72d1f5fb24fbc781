#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (with the build before a change as
# device-carry/bin/dambreak_before): gauges.csv of DamBreak at dp 0.02 m to 0.3 s from the new
# build on one device and on --devices 0,0 (and 0,1 where a second GPU is visible) against the
# build before, byte for byte: a change that should move no bit. GAUGE_OPTIONS: more options for every run (e.g. --boundary mdbc).
# Runs in $OUT/check_<name>/.
set -uo pipefail
source bench/device_env.sh
runs=("before:$bin/dambreak_before:--devices 0" "new:$bin/dambreak:--devices 0"
      "new_0_0:$bin/dambreak:--devices 0,0")
gpus=$(nvidia-smi --list-gpus | wc -l)
[ "$gpus" -ge 2 ] && runs+=("new_0_1:$bin/dambreak:--devices 0,1")
for run in "${runs[@]}"; do
  IFS=: read -r name exe devices <<< "$run"
  # shellcheck disable=SC2086
  "$exe" --backend cuda $devices --dp 0.02 --t-end 0.3 --no-frames --gauge-every 0.01 \
    ${GAUGE_OPTIONS:-} --output-dir "$out/check_$name" > "$out/check_$name.log" 2>&1
  echo "$name: exit $?"
done
for run in "${runs[@]:1}"; do
  name=${run%%:*}
  if cmp -s "$out/check_before/gauges.csv" "$out/check_$name/gauges.csv"; then
    echo "gauges.csv of $name: the same bytes as before"
  else
    echo "gauges.csv of $name: DIFFERS from before"
  fi
done
