#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: where the mDBC wall of the hydrostatic tank reads
# 2 % high (validation/README.md, hydrostatic tank). still_water as validation/hydrostatic.py runs
# it (H / dp 40, 1 s, --boundary mdbc), with probes in the fluid at dp/2, dp, 2 dp, 4 dp from the
# wall x = 0 and on the centre line, and wall sensors on x = 0, at four heights; the particles at
# t_end in a frame. WALL_BIAS_OPTIONS: more options (e.g. --h-factor 1.5 --max-neighbours 192),
# WALL_BIAS_NAME names the run, WALL_BIAS_BOUNDARY=dbc runs it under DBC, WALL_BIAS_T_END sets
# its length (default 1 s). Everything in $OUT/<name>.tgz.
set -uo pipefail
source bench/device_env.sh
name=${WALL_BIAS_NAME:-h1.3}
work_in "wall-bias-$name"
dp=0.0125
options=(--backend cuda --boundary "${WALL_BIAS_BOUNDARY:-mdbc}" --dp $dp --t-end "${WALL_BIAS_T_END:-1}" --length 1 --width 0.5 --depth 0.5
         --output-every 1 --gauge-every 0.005)
for z in 0.0888393 0.153304 0.217768 0.282232 0.346696; do
  for x in 0.00625 0.0125 0.025 0.05 0.5; do options+=(--probe "$x,0.25,$z"); done
  options+=(--wall-sensor "0,0.25,$z,+x,0.025")
done
# shellcheck disable=SC2086
"$bin/still_water" "${options[@]}" ${WALL_BIAS_OPTIONS:-} --output-dir "$work/run" > "$work/run.log" 2>&1
echo "$name: exit $?"; grep -E "particles|throughput" "$work/run.log" | head -3
tar czf "$R/$name.tgz" -C "$work" .
