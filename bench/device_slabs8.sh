#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: each cell cut into 8 slabs along the fastest
# axis instead of 4 (kernels/cell_grid.h), so that the rows around a particle, trimmed to its own
# slab, span 2 1/8 cell widths instead of 2 1/4: fewer candidates for the list build and the lean
# walk, the same number for every thread of a warp. CHECKS=1 and AB_ROUNDS=n as
# bench/device_before_after.sh says.
WORK_NAME=slabs8 exec bash bench/device_before_after.sh
