#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), two GPUs. GPU 0:
# SPHERIC test 2 (DamBreak) at dp 0.01 m to 6 s with the validation runs' options and
# --no-penetration on, frames every 0.1 s, read there by bench/fast_particles.py (which fluid
# particles are fast, and where those that left the domain were last seen); the frames are then
# deleted (they would not come back). GPU 1: Lobovsky at dp 0.0025 m with it, only the floor
# dragging, as validation/results/h200x2-no-penetration/ (lob-np). Into $OUT/leave.tgz and
# $OUT/ensemble.tgz.
set -uo pipefail
source bench/device_env.sh
work_in leave
(start=$SECONDS
 CUDA_VISIBLE_DEVICES=0 timeout 420 "$bin/dambreak" --backend cuda --dp 0.01 --t-end 6 \
   --boundary mdbc --slip free-slip --gradient-correction on --alpha 0.01 --no-penetration on \
   --output-every 0.1 --output-dir "$work/sph" > "$work/sph.log" 2>&1
 echo "sph: exit $? in $((SECONDS - start)) s"
 timeout 150 python3 bench/fast_particles.py "$work/sph" --dp 0.01 --tank 0,0,0,3.22,1,1 \
   > "$work/fast_particles.txt" 2>&1
 echo "fast_particles: exit $? at $((SECONDS - start)) s"
 find "$work/sph" -name '*.vtu' -delete) > "$work/sph-queue.log" 2>&1 &
FLOOR=--slip_problem_--free-slip-walls_sides,upstream,downstream
OUT=$R GPUS=1 CASE_LIMIT=300 T_END_lobovsky=1.1 \
  MEMBERS="lob-np:lobovsky:lobovsky:0.0025:0:${FLOOR}_--no-penetration_on" \
  bash bench/device_ensemble.sh
wait
cat "$work/sph-queue.log"
grep -hE "time loop|rebuilds  |left domain" "$work/sph.log" /tmp/ensemble/*/runs/*/console.log
sed -n '/^gone over the run/,$p' "$work/fast_particles.txt"
tar czf "$R/leave.tgz" -C "$work" .
