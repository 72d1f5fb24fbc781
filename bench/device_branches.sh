#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: issue 24's figure. DamBreak (BRANCH_DP, default
# 0.01 m: 1.05 M particles) to t = 1.0 s, no frames: a tree of 8 scenarios in two levels (the
# base to 0.6 s; two branches there, alpha 0.02 and 0.1; each with four branches at 0.8 s, delta
# 0, 0.05, 0.1, 0.2) run once with --branches, against the 8 scenarios run separately from
# t = 0 (each a one-chain branch file, so that it computes the same changes at the same times).
# Wall time of each, and whether each scenario's gauges.csv is the same bytes both ways.
set -uo pipefail
source bench/device_env.sh
out=$out/branches
mkdir -p "$out"
dp=${BRANCH_DP:-0.01}
work=/tmp/branches-run
rm -rf "$work" && mkdir -p "$work"
{
  echo "at 0.6"
  for a in 0.02 0.1; do echo "branch a${a//./}"; echo "alpha $a"; done
  for a in 0.02 0.1; do
    echo "at 0.8 in a${a//./}"
    for d in 0 0.05 0.1 0.2; do echo "branch a${a//./}_d${d//./}"; echo "delta $d"; done
  done
} > "$work/tree.txt"
cp "$work/tree.txt" "$out/tree.txt"
run() {  # name, plan
  local start end
  start=$(date +%s%N)
  "$bin"/dambreak --backend cuda --dp "$dp" --t-end 1.0 --no-frames --output-dir "$work/$1" \
    --branches "$2" > "$out/$1.log" 2>&1
  local code=$?
  end=$(date +%s%N)
  echo "$1: exit $code, $(( (end - start) / 1000000 )) ms"
}
run tree "$work/tree.txt" | tee "$out/times.txt"
for a in 0.02 0.1; do
  for d in 0 0.05 0.1 0.2; do
    name=a${a//./}_d${d//./}
    printf 'at 0.6\nbranch a%s\nalpha %s\nat 0.8 in a%s\nbranch %s\ndelta %s\n' \
      "${a//./}" "$a" "${a//./}" "$name" "$d" > "$work/$name.txt"
    run "alone-$name" "$work/$name.txt" | tee -a "$out/times.txt"
    if cmp -s "$work/tree/$name/gauges.csv" "$work/alone-$name/$name/gauges.csv"; then
      echo "$name: gauges.csv the same bytes in the tree and alone" | tee -a "$out/times.txt"
    else
      echo "$name: gauges.csv DIFFERENT" | tee -a "$out/times.txt"
    fi
  done
done
cp "$work/tree/branches.csv" "$out/"
grep -h "memory\|B/particle" "$out/tree.log" | head -3
