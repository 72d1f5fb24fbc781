#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: an Nsight Compute profile of Forces (and of the
# neighbour-list build) in DamBreak at PROFILE_DP (default 0.006 m, 4.19 M particles), and the SASS
# of the kernels. Writes to $OUT/forces-profile/: the report (.ncu-rep), its details page, the
# per-instruction source page (stall samples per SASS line) of each of PROFILE_KERNELS (default
# "forces_kernel neighbour_list_kernel") and the SASS. PROFILE_OPTIONS: more dambreak options,
# e.g. "--neighbours cells" with PROFILE_KERNELS=forces_from_cells_kernel.
# PROFILE_EXE: the executable in device-carry/bin (default dambreak).
# ncu runs with --clock-control none: the device's clocks stay as they are.
set -uo pipefail
source bench/device_env.sh
out=$out/forces-profile
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
dp=${PROFILE_DP:-0.006}
kernels=${PROFILE_KERNELS:-forces_kernel neighbour_list_kernel}
# shellcheck disable=SC2086
"$ncu" --clock-control none --set full --import-source no \
  --kernel-name regex:"${kernels// /|}" --launch-skip 20 --launch-count 3 \
  -o "$out/forces" -f \
  "$bin"/"${PROFILE_EXE:-dambreak}" --backend cuda --dp "$dp" --t-end 0.01 --no-output ${PROFILE_OPTIONS:-} \
  --output-dir "$out/run" > "$out/ncu.log" 2>&1
echo "ncu exit $?"
tail -5 "$out/ncu.log"
"$ncu" --import "$out/forces.ncu-rep" --page details --print-units base > "$out/details.txt" 2>&1
for kernel in $kernels; do
  "$ncu" --import "$out/forces.ncu-rep" --page source --csv --print-source sass \
    --kernel-name regex:$kernel --launch-count 1 > "$out/${kernel%_kernel}_source.csv" 2>&1
done
# The whole SASS of the CUDA kernels library (the function filter needs mangled names).
"$cuobjdump" --dump-sass "$bin"/dambreak > "$out/dambreak.sass" 2>&1 || true
grep -E 'Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|DRAM Throughput|Compute \(SM\)|L1/TEX Hit|L2 Hit|Issue Slots Busy|Executed Ipc Active|Block Limit' \
  "$out/details.txt" | head -60
