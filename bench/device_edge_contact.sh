#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), two GPUs: the CUDA
# tests beside SPHERIC test 2 at dp 0.01 m to 6 s, after set-up took the obstacle's ghost nodes
# to the lattice (problems/lattice.h) and --no-penetration learnt edges and corners
# (kernels/wall_contact.h). MEMBERS_SET picks the members: 1 (default) seeds 0-2 with
# --no-penetration on and seed 0 without it; 2 seeds 3-4 with it and seeds 1-2 without; 3 seeds
# 0-1 with it (after problems gained a reach for their fluid: GPUS=1,0 runs seed 0 on the GPU
# without the tests). Compare with validation/results/h200x2-no-penetration/ (the same seeds
# before). Into $OUT/ensemble.tgz.
set -uo pipefail
SPH=--boundary_mdbc_--slip_free-slip_--gradient-correction_on_--alpha_0.01
NP=${SPH}_--no-penetration_on
if [ "${MEMBERS_SET:-1}" = 1 ]; then
  MEMBERS="np0:spheric_dambreak:dambreak:0.01:0:$NP np1:spheric_dambreak:dambreak:0.01:1:$NP \
np2:spheric_dambreak:dambreak:0.01:2:$NP off0:spheric_dambreak:dambreak:0.01:0:$SPH"
elif [ "${MEMBERS_SET:-1}" = 3 ]; then
  MEMBERS="np0:spheric_dambreak:dambreak:0.01:0:$NP np1:spheric_dambreak:dambreak:0.01:1:$NP"
else
  MEMBERS="np3:spheric_dambreak:dambreak:0.01:3:$NP np4:spheric_dambreak:dambreak:0.01:4:$NP \
off1:spheric_dambreak:dambreak:0.01:1:$SPH off2:spheric_dambreak:dambreak:0.01:2:$SPH"
fi
TESTS=${TESTS:-1} GPUS=${GPUS:-0,1} CASE_LIMIT=${CASE_LIMIT:-280} MEMBERS="$MEMBERS" \
  bash bench/device_ensemble.sh
grep -hE "time loop|rebuilds  |left domain" /tmp/ensemble/*/runs/*/console.log
