#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: a wall particle's list holds the fluid
# alone, and the lean walk of a wall takes the fluid alone (kernels/build_neibs_body.h,
# kernels/cell_walk.h): walls never move, so their pairs with walls added exact zeros; the list's
# room is reserved from the share of fluid under DBC (src/devices/device_layout.h).
# CHECKS=1 and AB_ROUNDS=n as bench/device_before_after.sh says; gauges.csv should keep the bytes
# of the build before (only exact zeros are left out of the sums).
WORK_NAME=wall-lists exec bash bench/device_before_after.sh
