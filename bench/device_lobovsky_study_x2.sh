#!/usr/bin/env bash
# Runs on a machine with two GPUs, over device-carry/: Lobovsky's resolution study with dp 0.002 m
# added, in one device call. dp 0.01, 0.005 and 0.0025 m (the case's default study) run on the
# second GPU while dp 0.002 m, about as long as the other three together, runs on the first;
# mDBC, free-slip, as in validation/results/h100-lobovsky-dp0.002/. Runs only: the metrics come
# from --from-output where numpy is, over the two folders' runs put together.
#
# The runs go to build-device-runs/ (ignored by git, so a warm machine keeps it between calls):
# a run that RUN_LIMIT stops writes its checkpoint there (validation/case_run.py), and a second
# call with RESTART=1 resumes dp 0.002 from it. In $OUT/lobovsky-study.tar.xz (no checkpoints).
set -uo pipefail
source bench/device_env.sh
runs=$PWD/build-device-runs/lobovsky
mkdir -p "$runs"

# case NAME DPS GPU [SIMULATOR OPTION...]
case_runs() {
  local name=$1 dps=$2 gpu=$3 start=$SECONDS
  shift 3
  CUDA_VISIBLE_DEVICES=$gpu timeout "${RUN_LIMIT:-560}" python3 validation/lobovsky.py \
    --build-dir device-carry --backend cuda --runs-only --dp "$dps" --out "$runs/$name" \
    -- --slip free-slip "$@" >> "$runs/$name.log" 2>&1
  echo "$name (GPU $gpu): exit $? in $((SECONDS - start)) s"
}

if [ -n "${RESTART:-}" ]; then
  case_runs dp0.002 0.002 0 --restart latest
else
  case_runs dp0.002 0.002 0 &
  case_runs study 0.01,0.005,0.0025 1 &
  wait
fi
grep -h "time loop" "$runs"/*/runs/*/console.log
tar cf - -C "$runs" --exclude='checkpoint*' . | xz -T0 -6 > "$out/lobovsky-study.tar.xz"
