#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: DamBreak at VARIANT_DP (default 0.006 m, 4.19 M
# particles, VARIANT_T_END 0.05 s, about 1000 iterations) with every device-carry/bin/dambreak*
# (builds that differ in one compile-time choice of Forces), ROUNDS times in turn, so that the
# machine's drift falls on all of them alike. Prints each run's mips; logs in $OUT/variants/.
set -uo pipefail
source bench/device_env.sh
out=$out/variants
mkdir -p "$out"
dp=${VARIANT_DP:-0.006}
t_end=${VARIANT_T_END:-0.05}
for round in $(seq "${ROUNDS:-2}"); do
  for exe in "$bin"/dambreak*; do
    name=$(basename "$exe")
    "$exe" --backend cuda --dp "$dp" --t-end "$t_end" --no-output ${BENCH_OPTIONS:-} \
      --output-dir "$out/$name-$round" > "$out/$name-$round.log" 2>&1
    echo "$name round $round: exit $? $(grep -E 'mips average' "$out/$name-$round.log" |
      sed 's/.*= \([0-9.]*\) mips.*/\1 mips/')"
  done
done
