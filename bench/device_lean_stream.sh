#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: the lean walk on the GPU takes a particle's
# rows cut to the sphere of the list radius around it (SphereRows, kernels/cell_walk.h) as one
# stream of chunks, so that a warp runs as many chunks as its busiest thread has in all rather than
# at every row. Not kept (bench/NOTES.md entry 23): the change is
# bench/results/2026-11-27-h100-row-spheres/row-stream-not-kept.patch (against 361d5a9).
# CHECKS=1 and AB_ROUNDS=n as bench/device_before_after.sh says.
WORK_NAME=lean-stream exec bash bench/device_before_after.sh
