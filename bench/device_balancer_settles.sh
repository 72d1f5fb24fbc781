#!/usr/bin/env bash
# Runs on a two-GPU machine (device kind nvidia-h100-x2) over device-carry/, with the build before
# the change as device-carry/bin/dambreak_before: a boundary between devices moves only where the
# gap is larger than what a slice there cost at its last move (src/multi_device/load_balancer.h),
# so that it settles instead of going back and forth (bench/NOTES.md entry 21). AB_ROUNDS as
# bench/device_two_gpu_before_after.sh says.
WORK_NAME=balancer-settles exec bash bench/device_two_gpu_before_after.sh
