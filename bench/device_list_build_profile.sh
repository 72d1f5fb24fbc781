#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): Nsight Compute's full
# set on one neighbour-list build (neighbour_list_kernel) in DamBreak at dp 0.01 m (1.05 M
# particles) from its state at t = 0.5 s (a checkpoint), under DBC: issue slots, occupancy, stall
# reasons, shared-memory conflicts and the hottest SASS lines. Writes $OUT/list-build-profile/.
set -uo pipefail
source bench/device_env.sh
out=$out/list-build-profile
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
work=/tmp/list-build-profile
rm -rf "$work"
"$bin"/dambreak --backend cuda --dp 0.01 --t-end 0.51 --checkpoint-every 0.5 --no-frames \
  --output-dir "$work" > "$out/base.log" 2>&1
checkpoint=$(ls "$work"/checkpoints/*.chk | head -1)
"$ncu" --clock-control none --set full --import-source no --kernel-name regex:neighbour_list_kernel \
  --launch-count 1 -o "$out/list" -f \
  "$bin"/dambreak --backend cuda --dp 0.01 --restart "$checkpoint" --t-end 0.5005 --no-output \
  --output-dir "$work/profiled" > "$out/ncu.log" 2>&1
echo "ncu exit $?"
"$ncu" --import "$out/list.ncu-rep" --page details --print-units base > "$out/details.txt" 2>&1
"$ncu" --import "$out/list.ncu-rep" --page source --csv --print-source sass > "$out/source.csv" 2>&1
grep -E 'Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Executed Ipc|Bank Conflicts|Warp Cycles Per Issued|Avg. Active Threads|Branch Efficiency|Divergent' \
  "$out/details.txt" | head -30
python3 - "$out/source.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next((i for i, r in enumerate(rows) if r and r[0] == "Address"), None)
if head is None:
    sys.exit("no SASS table")
h = rows[head]
col = {n: k for k, n in enumerate(h)}
key = next(n for n in h if n.startswith("Warp Stall Sampling (All"))
lines = [r for r in rows[head + 1:] if len(r) == len(h)]
total = sum(float(r[col[key]] or 0) for r in lines)
print("stall samples", total)
for r in sorted(lines, key=lambda r: -float(r[col[key]] or 0))[:25]:
    print(f"{100 * float(r[col[key]] or 0) / total:5.1f} %  {r[col['Source']][:90]}")
PY
rm -f "$out/list.ncu-rep"
