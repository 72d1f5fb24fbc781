#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: each cell's particles sorted by slab along
# the fastest axis, and every row of cells around a particle trimmed to its slab
# (kernels/cell_grid.h, kernels/cell_walk.h): fewer candidates for the list build and the lean walk.
# CHECKS=1 and AB_ROUNDS=n as bench/device_before_after.sh says.
WORK_NAME=row-slabs exec bash bench/device_before_after.sh
