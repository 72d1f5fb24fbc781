#!/usr/bin/env bash
# Runs on a two-GPU machine (device kind nvidia-h100-x2) over device-carry/, with the build before
# the change as device-carry/bin/dambreak_before: the devices' first split weighs a wall at a
# sixth of a fluid particle (src/driver/run_setup.h: start_work) instead of counting particles,
# so that the balancer starts where it would settle (bench/NOTES.md entry 22). Both builds under
# DBC (AB_ROUNDS rounds) and mDBC, and their gauges.csv byte for byte, as
# bench/device_two_gpu_before_after.sh says.
WORK_NAME=first-split MDBC=1 GAUGES=1 exec bash bench/device_two_gpu_before_after.sh
