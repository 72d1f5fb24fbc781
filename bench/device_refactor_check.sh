#!/usr/bin/env bash
# Issue 20's GPU check, on the GPU machine over device-carry/ (this tree, scripts/pack_for_device.sh
# with its default PACK_TESTS) and baseline-carry/bin (the same executables built from the commit
# before the restructuring):
#   1. the CUDA tests of this tree, of every test executable carried;
#   2. DamBreak before and after, same arguments: the last frame's .vtu compared byte for byte
#      (positions, velocities, densities, pressures, ids, types);
#   3. DamBreak at 4.19 M particles, output off, before/after alternated twice: mips.
# Logs go to $OUT; end with scripts/device_bundle.sh to bring them back as one tarball.
set -uo pipefail
source bench/device_env.sh
after=$bin
before=$PWD/baseline-carry/bin  # dambreak built from the commit before the restructuring
out=$out/refactor-check
mkdir -p "$out"
for exe in "$after"/test_*; do
  t=$(basename "$exe")
  "$exe" --gtest_filter='*Cuda*:*Gpu*' 2>&1 | tee "$out/$t.log" | grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran"
done

bitwise_args=(--backend cuda --dp "${CHECK_DP:-0.01}" --t-end "${CHECK_T_END:-0.5}"
              --output-every "${CHECK_T_END:-0.5}" --no-instruments)
for which in before after; do
  bin=$before; [ "$which" = after ] && bin=$after
  "$bin/dambreak" "${bitwise_args[@]}" --output-dir "$out/bitwise-$which" > "$out/bitwise-$which.log" 2>&1
  echo "$which: exit $?, $(grep -E 'iterations|mips' "$out/bitwise-$which.log" | head -2 | tr -s ' ' | tr '\n' ' ')"
done
last=$(ls "$out/bitwise-after"/*.vtu | sort | tail -1)
if cmp "$out/bitwise-before/$(basename "$last")" "$last"; then
  echo "bitwise: $(basename "$last") identical before and after" | tee "$out/bitwise.txt"
else
  echo "bitwise: $(basename "$last") DIFFERS" | tee "$out/bitwise.txt"
fi
rm -f "$out"/bitwise-*/*.vtu  # compared; too large to bring back

speed_args=(--backend cuda --dp "${SPEED_DP:-0.006}" --t-end "${SPEED_T_END:-0.15}" --no-output)
for round in 1 2; do
  for which in before after; do
    bin=$before; [ "$which" = after ] && bin=$after
    "$bin/dambreak" "${speed_args[@]}" --output-dir "$out/speed-$which-$round" \
      > "$out/speed-$which-$round.log" 2>&1
    echo "speed $which round $round: $(grep -E '^ *throughput|^ *memory ' "$out/speed-$which-$round.log" | tr -s ' ' | tr '\n' ' ')" \
      | tee -a "$out/speed.txt"
  done
done
