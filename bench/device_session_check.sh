#!/usr/bin/env bash
# Runs on a GPU machine over device-carry/ (scripts/pack_for_device.sh): one call's worth of
# checks and measurements of the working tree, each step in its own folder under $OUT:
#   1. the CUDA instance of every carried test (device_gpu_tests.sh; on two GPUs also
#      SeveralGpus.TwoGpusMatchOneBitwise);
#   2. the instruments' cost every iteration (device_instruments.sh without its tests);
#   3. the Nsight Compute profile of Forces and the list build (device_forces_profile.sh);
#   4. where the machine has two GPUs, DamBreak at 1.05 and 4.19 M particles on --devices 0,1
#      and on --devices 0 (device_one_gpu.sh), for the share of the loop outside the kernels.
# SESSION_STEPS picks steps by number (default "1 2 3 4").
#   mkdir -p /tmp/res && tar xJf device-pack/carry.tar.xz && \
#     OUT=/tmp/res bash bench/device_session_check.sh
set -uo pipefail
source bench/device_env.sh
steps=${SESSION_STEPS:-1 2 3 4}
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
{
  for step in $steps; do
    case $step in
      1) echo "== 1. CUDA tests"; OUT=$out bash bench/device_gpu_tests.sh ;;
      2) echo "== 2. instruments"; OUT=$out SKIP_TESTS=1 bash bench/device_instruments.sh ;;
      3) echo "== 3. Forces profile"; OUT=$out bash bench/device_forces_profile.sh ;;
      4) if [ "$gpus" -ge 2 ]; then
           for devices in 0,1 0; do
             echo "== 4. --devices $devices"
             OUT=$out BENCH_NAME=devices-${devices/,/-} BENCH_OPTIONS="--devices $devices" \
               BENCH_RUNS="0.01:0.08 0.006:0.05" bash bench/device_one_gpu.sh
           done
         else
           echo "== 4. skipped: $gpus GPU"
         fi ;;
    esac
  done
} 2>&1 | tee "$out/summary.txt"
