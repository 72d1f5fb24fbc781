#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: SPHERIC test 2 (validation/spheric_dambreak.py,
# --runs-only) at each COMPARE_DP (default "0.02": dp in m, space-separated) with every
# device-carry/bin/dambreak* executable, so
# that a change meant for speed can be shown to leave the validation metrics where they were.
# Here: python3 validation/spheric_dambreak.py --from-output <dir> for each run folder.
set -uo pipefail
source bench/device_env.sh
out=$out/spheric-compare
mkdir -p "$out"
for dp in ${COMPARE_DP:-0.02}; do
  for exe in "$bin"/dambreak*; do
    name=$(basename "$exe")-dp$dp
    python3 validation/spheric_dambreak.py --exe "$exe" --backend cuda --runs-only --dp "$dp" \
      --out "$out/$name" > "$out/$name.log" 2>&1
    echo "$name: exit $? ($SECONDS s)"
  done
done
