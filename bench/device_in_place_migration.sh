#!/usr/bin/env bash
# Runs on a two-GPU machine (device kind nvidia-h100-x2) over device-carry/, with the build before
# the change as device-carry/bin/dambreak_before: at a rebuild a device's own particles stay in its
# current arrays and the arriving ones land past them, so that the sort after migration moves
# every particle once instead of after a copy of the device's whole state
# (src/multi_device/device_group_rebuild.cpp: migrate; bench/NOTES.md entry 22). Both builds
# (AB_ROUNDS rounds), their gauges.csv byte for byte and a trace of each, as
# bench/device_two_gpu_before_after.sh says.
WORK_NAME=in-place-migration GAUGES=1 TRACE=1 exec bash bench/device_two_gpu_before_after.sh
