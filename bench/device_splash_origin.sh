#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), two GPUs: SPHERIC
# test 2 (DamBreak) at dp 0.01 m with the validation runs' options to 0.95 s, frames every
# 0.02 s, h = 1.3 dp on GPU 0 and h = 1.5 dp on GPU 1; bench/splash_origin.py then says where the
# water gauge H1 reads early came from. The frames are deleted (they would not come back). Into
# $OUT/splash.tgz: each run's log, gauges.csv and report, and the tracing's output.
set -uo pipefail
source bench/device_env.sh
work_in splash
options=(--backend cuda --dp 0.01 --t-end 0.95 --output-every 0.02 --boundary mdbc
         --slip free-slip --gradient-correction on --alpha 0.01)
trace() {  # trace GPU NAME RADIUS [OPTIONS]: one run, then the tracing
  local gpu=$1 name=$2 radius=$3 start=$SECONDS
  shift 3
  CUDA_VISIBLE_DEVICES=$gpu timeout 200 "$bin/dambreak" "${options[@]}" "$@" \
    --output-dir "$work/$name" > "$work/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s"
  timeout 200 python3 bench/splash_origin.py "$work/$name" --gauge 0.496,0.5 --window 0.70,0.95 \
    --obstacle 0.66,0.29,0,0.82,0.70,0.16 --radius "$radius" > "$work/$name-origin.txt" 2>&1
  echo "$name tracing: exit $? at $((SECONDS - start)) s"
  find "$work/$name" \( -name '*.vtu' -o -name '*.pvd' \) -delete
}
trace 0 h13 0.013 > "$work/h13-queue.log" 2>&1 &
trace 1 h15 0.015 --h-factor 1.5 --max-neighbours 192 > "$work/h15-queue.log" 2>&1 &
wait
cat "$work"/*-queue.log "$work"/*-origin.txt
tar czf "$R/splash.tgz" -C "$work" .
