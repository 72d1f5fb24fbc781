#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: every row of cells around a particle (and
# around an mDBC ghost node) trimmed to the slabs that reach the sphere of the list radius around
# it, instead of to the particle's own slab. Not kept (bench/NOTES.md entry 23): the change is
# bench/results/2026-11-27-h100-row-spheres/row-spheres-not-kept.patch, to be applied to c62b49b
# for a rerun. CHECKS=1 and AB_ROUNDS=n as bench/device_before_after.sh says.
WORK_NAME=row-spheres exec bash bench/device_before_after.sh
