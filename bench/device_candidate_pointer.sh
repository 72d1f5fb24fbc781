#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: the candidate test (near_mask,
# kernels/cell_walk.h) stepping one pointer back over a chunk's candidates, so that the unrolled
# loads are fixed offsets from it, instead of indexing by an unsigned count (each candidate's
# 64-bit address worked out anew), and each margin made three fused multiply-adds
# (bench/NOTES.md entry 25).
#   PART=checks:  bench/device_before_after.sh with CHECKS=1 AB_ROUNDS=2 ($OUT/results.tgz), and
#                 the SASS of both builds' lean Forces ($OUT/sass.tgz).
#   PART=held:    the lean mode at 1.05 M and 4.19 M particles with three builds in turn, two
#                 rounds: the build before (dambreak_before), the candidate pointer alone
#                 (dambreak_pointer) and with it the held masks' count and bits kept in registers
#                 (dambreak: NearCandidates' arrays in a room of their own); then the largest run
#                 with dambreak ($OUT/held.tgz).
#   PART=largest: the lean mode's largest run (bench/device_largest_run.sh, dp 0.001 m) with this
#                 build, then the one before ($OUT/largest.tgz).
set -uo pipefail
case "${PART:-checks}" in
  checks)
    WORK_NAME=candidate-pointer CHECKS=1 AB_ROUNDS=${AB_ROUNDS:-2} timeout 480 \
      bash bench/device_before_after.sh
    source bench/device_env.sh
    work_in candidate-pointer-sass
    cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
    for exe in dambreak_before dambreak; do
      "$cuobjdump" --dump-sass "$bin/$exe" |
        awk '/Function :/ { keep = /forces_from_cells_kernel/ } keep' > "$work/$exe-forces-from-cells.sass"
      echo "$exe: $(grep -c 'LDG.E.128' "$work/$exe-forces-from-cells.sass") LDG.E.128," \
        "$(grep -cE '^ +/\*[0-9a-f]{4}\*/' "$work/$exe-forces-from-cells.sass") instructions"
    done
    tar czf "$R/sass.tgz" -C "$work" .
    ;;
  held)
    source bench/device_env.sh
    work_in held-masks
    for round in 1 2; do
      for exe in dambreak_before dambreak_pointer dambreak; do
        BENCH_EXE=$exe BENCH_NAME=round$round-cells-$exe BENCH_OPTIONS="--neighbours cells" \
          BENCH_RUNS="0.01:0.08 0.006:0.05" timeout 150 bash bench/device_one_gpu.sh > "$work/ab.txt" 2>&1
        grep -E "^dp|\| mips|Forces" "$work/ab.txt" | sed "s/^/cells $exe: /"
      done
    done
    LARGEST_EXE=dambreak timeout 280 bash bench/device_largest_run.sh
    tar czf "$R/held.tgz" -C "$work" .
    ;;
  largest)
    source bench/device_env.sh
    work_in largest-candidate-pointer
    for exe in dambreak dambreak_before; do
      LARGEST_EXE=$exe timeout 280 bash bench/device_largest_run.sh
    done
    tar czf "$R/largest.tgz" -C "$work" .
    ;;
esac
