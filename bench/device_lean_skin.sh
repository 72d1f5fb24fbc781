#!/usr/bin/env bash
# Runs on a one-GPU machine over device-carry/, with the build before a change as
# device-carry/bin/dambreak_before: the lean mode (--neighbours cells) at 1.05 M and 4.19 M
# particles, output off, with each of SKINS (default "0.08:8 0.04:4 0.02:2", list skin:rebuild
# interval; 0.08:8 the defaults), both builds in turn. A thinner skin makes the cells, and so every
# particle's candidates, smaller, and the sort more frequent (bench/NOTES.md entries 17 and 23).
# Everything in $OUT/results-skin.tgz, worked on in /tmp/lean-skin.
set -uo pipefail
source bench/device_env.sh
work_in lean-skin
for skin in ${SKINS:-0.08:8 0.04:4 0.02:2}; do
  IFS=: read -r list_skin every <<< "$skin"
  for exe in dambreak_before dambreak; do
    name=skin$list_skin-every$every-$exe
    BENCH_EXE=$exe BENCH_NAME=$name \
      BENCH_OPTIONS="--neighbours cells --list-skin $list_skin --rebuild-every $every" \
      BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" timeout 150 bash bench/device_one_gpu.sh \
      > "$work/$name.txt" 2>&1
    grep -E "\| mips|Forces|BuildNeibs" "$work/$name.txt" | sed "s/^/$name: /"
  done
done
tar czf "$R/results-skin.tgz" -C "$work" .
