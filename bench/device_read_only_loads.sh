#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: the candidates' positions (the cell walks'
# tests) and the neighbours' positions and velocities (Forces' pair loops) loaded through the
# read-only data path (__ldg). Not kept (bench/NOTES.md entry 23): the change is
# bench/results/2026-11-27-h100-slabs8/call4-read-only-loads-not-kept/read-only-loads.patch.
# CHECKS=1 and AB_ROUNDS=n as bench/device_before_after.sh says.
WORK_NAME=read-only-loads exec bash bench/device_before_after.sh
