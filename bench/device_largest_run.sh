#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: the largest DamBreak that fits one GPU in the lean
# mode (--neighbours cells, no list; DBC, so no mDBC ghost offsets either), a few iterations
# long, output and instruments off. LARGEST_DP (default 0.001 m: about 718 M particles at
# ~100 bytes each) and LARGEST_T_END (default 6e-5 s: about seven iterations) set its size and
# length. LARGEST_NEIGHBOURS=list runs the fast mode instead (the neighbour list; at 198 bytes a
# particle, dp 0.00125 m: about 368 M). LARGEST_EXE: the executable in device-carry/bin (default
# dambreak; dambreak_before for an A/B); LARGEST_OPTIONS: more dambreak options, LARGEST_NAME a
# name for such a run. The log and run report (bytes per particle array by array, mips) go to
# $OUT/largest[-list][-<exe>][-<name>]/.
set -uo pipefail
source bench/device_env.sh
out=$out/largest${LARGEST_NEIGHBOURS:+-$LARGEST_NEIGHBOURS}${LARGEST_EXE:+-$LARGEST_EXE}${LARGEST_NAME:+-$LARGEST_NAME}
mkdir -p "$out"
dp=${LARGEST_DP:-0.001}
nvidia-smi --query-gpu=memory.used,memory.total --format=csv | tee "$out/memory_before.txt"
start=$SECONDS
"$bin"/"${LARGEST_EXE:-dambreak}" --backend cuda --neighbours "${LARGEST_NEIGHBOURS:-cells}" --dp "$dp" --t-end "${LARGEST_T_END:-6e-5}" \
  --no-output --no-instruments --status-interval 10 ${LARGEST_OPTIONS:-} --output-dir "$out/run" \
  > "$out/dambreak_dp$dp.log" 2>&1
echo "exit $? after $((SECONDS - start)) s"
grep -E "particles|set-up|throughput|memory|neighbours" "$out/dambreak_dp$dp.log" | head -8
