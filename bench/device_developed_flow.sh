#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): DamBreak's speed where
# the benchmarks measure it (the first DEV_T_SHORT seconds, particles still on their lattice)
# against a developed flow (DEV_T_DEVELOPED seconds in: the surge has hit the obstacle), at
# DEV_DP (default 0.01 m, 1.05 M particles), output off but a checkpoint at DEV_T_DEVELOPED:
#   1. the fresh run to DEV_T_SHORT, timed;
#   2. a run to DEV_T_DEVELOPED with one checkpoint, then the restart from it for DEV_T_SHORT
#      more, timed: the same number of iterations as 1, give or take;
#   3. unless DEV_PROFILE=0, Nsight Compute on Forces in both (3 launches after the first 20),
#      for what changes.
# DEV_OPTIONS: more options for every run; DEV_NAME: the folder under $OUT (default
# developed-flow), where logs, reports, profiles and summary.txt go.
set -uo pipefail
source bench/device_env.sh
out=$out/${DEV_NAME:-developed-flow}
mkdir -p "$out"
dp=${DEV_DP:-0.01}
t_short=${DEV_T_SHORT:-0.08}
t_developed=${DEV_T_DEVELOPED:-1.0}
work=/tmp/${DEV_NAME:-developed-flow}
rm -rf "$work" && mkdir -p "$work"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
common=(--backend cuda --dp "$dp" --no-frames --gauge-every 100 ${DEV_OPTIONS:-})
{
  "$bin"/dambreak "${common[@]}" --t-end "$t_short" --output-dir "$work/fresh" \
    > "$out/fresh.log" 2>&1
  echo "fresh, 0 to $t_short s: exit $? $(grep -E 'mips average' "$out/fresh.log" | sed 's/per 1.0 s.*//')"
  # A run that reaches its end writes no checkpoint there: it goes a little further.
  "$bin"/dambreak "${common[@]}" --t-end "$(python3 -c "print($t_developed + 0.01)")" \
    --checkpoint-every "$t_developed" --output-dir "$work/base" > "$out/base.log" 2>&1
  echo "to $t_developed s: exit $? $(grep -E 'mips average' "$out/base.log" | sed 's/per 1.0 s.*//')"
  checkpoint=$(ls "$work"/base/checkpoints/*.chk 2>/dev/null | head -1)
  [ -n "$checkpoint" ] || { echo "no checkpoint at $t_developed s"; exit 1; }
  end=$(python3 -c "print($t_developed + $t_short)")
  "$bin"/dambreak "${common[@]}" --restart "$checkpoint" --t-end "$end" \
    --output-dir "$work/developed" > "$out/developed.log" 2>&1
  echo "developed, from $checkpoint to $end s: exit $? $(grep -E 'mips average' "$out/developed.log" | sed 's/per 1.0 s.*//')"
  for name in fresh developed; do
    grep -E "^  (Forces|BuildNeibs|Euler) |Forces ms/iteration|neighbours +at most|iterations" \
      "$out/$name.log" | sed "s/^/$name: /"
  done
  [ "${DEV_PROFILE:-1}" = 0 ] && exit 0
  for name in fresh developed; do
    if [ "$name" = fresh ]; then
      run=(--t-end "$t_short" --output-dir "$work/profile-fresh")
    else
      run=(--restart "$checkpoint" --t-end "$end" --output-dir "$work/profile-developed")
    fi
    "$ncu" --clock-control none --set full --import-source no --kernel-name regex:forces_kernel \
      --launch-skip 20 --launch-count 3 -o "$out/forces-$name" -f \
      "$bin"/dambreak "${common[@]}" "${run[@]}" > "$out/ncu-$name.log" 2>&1
    "$ncu" --import "$out/forces-$name.ncu-rep" --page details --print-units base \
      > "$out/details-$name.txt" 2>&1
    "$ncu" --import "$out/forces-$name.ncu-rep" --page source --csv --print-source sass \
      --launch-count 1 > "$out/forces-$name-source.csv" 2>&1
    echo "== Forces profile, $name"
    grep -E 'Duration|Achieved Occupancy|Issue Slots Busy|L1/TEX Hit|L2 Hit|DRAM Throughput|Memory Throughput  ' \
      "$out/details-$name.txt" | head -8
  done
} 2>&1 | tee "$out/summary.txt"
