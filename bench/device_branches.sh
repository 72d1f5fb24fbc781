#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: issue 24's figure. DamBreak (BRANCH_DP, default
# 0.01 m: 1.05 M particles) to t = 1.0 s, no frames: a tree of 8 scenarios in two levels with
# every kind of change (the base to 0.6 s; there the obstacle kept or removed; each of those with
# four branches at 0.8 s: as it is, a wall added across the tank in the surge's way with a wall
# sensor on its face, viscosity alpha 0.1, diffusion delta 0.2 and a gauge). Run once with
# --branches and --branch-slots 1 (one branch at a time) and 2 (two side by side on the GPU);
# against the 8 scenarios run separately from t = 0 (--scenario: one run each, the changes
# applied at their times). Wall time of each, the GPU's memory in use sampled every 100 ms, and
# whether each scenario's gauges.csv is the same bytes all ways.
set -uo pipefail
source bench/device_env.sh
out=$out/branches
mkdir -p "$out"
dp=${BRANCH_DP:-0.01}
work=/tmp/branches-run
rm -rf "$work" && mkdir -p "$work"
cat > "$work/tree.txt" <<'PLAN'
at 0.6
branch obstacle
branch no_obstacle
  remove obstacle
PLAN
leaves=()
for parent in obstacle no_obstacle; do
  cat >> "$work/tree.txt" <<PLAN
at 0.8 in $parent
branch ${parent}_as_is
branch ${parent}_wall
  add_box 1.2 0 0 1.26 1 0.3
  sensor S_wall 1.26 0.5 0.05 +x 0.05
branch ${parent}_viscous
  alpha 0.1
branch ${parent}_diffusive
  delta 0.2
  gauge G_mid 1.1 0.5
PLAN
  leaves+=("${parent}_as_is" "${parent}_wall" "${parent}_viscous" "${parent}_diffusive")
done
cp "$work/tree.txt" "$out/tree.txt"
run() {  # name, arguments...
  local name=$1 start end peak
  shift
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 > "$work/$name.mem" &
  local sampler=$!
  start=$(date +%s%N)
  "$bin"/dambreak --backend cuda --dp "$dp" --t-end 1.0 --no-frames --output-dir "$work/$name" \
    --branches "$work/tree.txt" "$@" > "$out/$name.log" 2>&1
  local code=$?
  end=$(date +%s%N)
  kill $sampler 2>/dev/null; wait $sampler 2>/dev/null
  peak=$(sort -n "$work/$name.mem" | tail -1)
  echo "$name: exit $code, $(( (end - start) / 1000000 )) ms, GPU memory in use at most ${peak} MiB"
}
echo "GPU memory in use before any run: $(nvidia-smi --query-gpu=memory.used --format=csv,noheader)" |
  tee "$out/times.txt"
run tree-slots1 --branch-slots 1 | tee -a "$out/times.txt"
run tree-slots2 --branch-slots 2 | tee -a "$out/times.txt"
for leaf in "${leaves[@]}"; do
  run "alone-$leaf" --scenario "$leaf" | tee -a "$out/times.txt"
  for tree in tree-slots1 tree-slots2; do
    if cmp -s "$work/$tree/$leaf/gauges.csv" "$work/alone-$leaf/gauges.csv"; then
      echo "$leaf: gauges.csv the same bytes in $tree and alone" | tee -a "$out/times.txt"
    else
      echo "$leaf: gauges.csv DIFFERENT in $tree and alone" | tee -a "$out/times.txt"
    fi
  done
done
for tree in tree-slots1 tree-slots2; do
  mkdir -p "$out/$tree"
  cp "$work/$tree/branches.csv" "$work/$tree/tree_report.md" "$work/$tree/tree_report.csv" \
    "$out/$tree/"
  cp -r "$work/$tree/tree_report" "$out/$tree/"
done
du -sh "$work"/tree-slots1/base/decision_*.chk "$work"/tree-slots1/*/decision_*.chk 2>/dev/null |
  tee -a "$out/times.txt"
