#!/usr/bin/env bash
# Runs on a two-GPU machine over device-carry/: how the artificial viscosity alpha moves the
# validation metrics that miss under mDBC with free-slip walls (bench/NOTES.md entry 22): SPHERIC
# test 2 at dp 0.01 m (the returning waves at H3 and H4) and Lobovsky at dp 0.005 m (the wall
# pressures' means over t* 4-6), one alpha per GPU at once (ALPHAS, default "0.02 0.01"; the
# default is 0.05). Runs only (validation/*.py --runs-only); the metrics come from --from-output
# where numpy is. Everything in $OUT/results.tgz.
set -uo pipefail
source bench/device_env.sh
work_in viscosity-study
gpu=0
for alpha in ${ALPHAS:-0.02 0.01}; do
  (
    export CUDA_VISIBLE_DEVICES=$gpu
    timeout 560 python3 validation/spheric_dambreak.py --build-dir device-carry --backend cuda \
      --runs-only --dp 0.01 --out "$work/spheric-alpha$alpha" -- --boundary mdbc \
      --slip free-slip --alpha "$alpha" > "$work/spheric-alpha$alpha.log" 2>&1
    echo "SPHERIC alpha $alpha: exit $?"
    if [ -n "${LOBOVSKY:-}" ]; then
      timeout 300 python3 validation/lobovsky.py --build-dir device-carry --backend cuda \
        --runs-only --dp 0.005 --out "$work/lobovsky-alpha$alpha" -- --slip free-slip \
        --alpha "$alpha" > "$work/lobovsky-alpha$alpha.log" 2>&1
      echo "Lobovsky alpha $alpha: exit $?"
    fi
  ) &
  gpu=$((gpu + 1))
done
wait
tar czf "$R/results.tgz" -C "$work" .
