#!/usr/bin/env bash
# Copies the built executables and the shared libraries they load that a stock CUDA image lacks
# (VTK, Boost, OpenMP, ...) into device-carry/, for running on a machine without VTK. PACK_TESTS
# names the test executables to take (default: those holding CUDA tests: test_cuda, and those whose
# tests run on every back end); PACK_EXTRA, other builds' executables (below).
# There: export LD_LIBRARY_PATH=$PWD/device-carry/lib
# Build the pack from a build without GDAL (-DSPH_WITH_GDAL=OFF: the case program then reads ESRI
# ASCII grids by the project's own reader): GDAL's libraries alone come to 50 MB packed.
# The folder is over the 64 MiB a device call carries; device-pack/carry.tar.xz holds it in about
# 8 MB: carry device-pack and begin the call with `tar xJf device-pack/carry.tar.xz`.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rm -rf device-carry && mkdir -p device-carry/bin device-carry/lib
cp "$build"/src/dambreak device-carry/bin/
for exe in bore_in_a_box column_collapse still_water lobovsky case; do
  if [ -e "$build/src/$exe" ]; then cp "$build/src/$exe" device-carry/bin/; fi
done
# The GPU's measured ceilings (bench/gpu_ceiling/), where CUDA was built.
if [ -e "$build/bench/gpu_ceiling" ]; then cp "$build/bench/gpu_ceiling" device-carry/bin/; fi
# A case's set-up timed stage by stage (bench/case_layout/).
if [ -e "$build/bench/case_layout" ]; then cp "$build/bench/case_layout" device-carry/bin/; fi
# Only the executables with CUDA tests by default: the device tool carries 64 MiB at most, and the
# CPU tests run here.
cuda_tests="test_cuda test_multi_device test_device_faults test_device_memory test_still_water
            test_dam_break test_exchange test_kernels test_device_instruments test_restart test_failures
            test_branch_backends test_wall_contact test_case_runs test_moving_bodies
            test_body_loads test_floating_bodies test_damping_zones"
for test in ${PACK_TESTS:-$cuda_tests}; do
  cp "$build/tests/$test" device-carry/bin/
done
# Other builds' executables beside these, for comparing builds in one device call: PACK_EXTRA
# holds NAME=PATH pairs, each copied to device-carry/bin/NAME.
for extra in ${PACK_EXTRA:-}; do
  cp "${extra#*=}" "device-carry/bin/${extra%%=*}"
done
# The C runtime and the compiler's own runtimes are newer on the device machine: leave them.
skip='linux-vdso|ld-linux|libc\.so|libm\.so|libgcc_s|libstdc\+\+|libpthread|libdl\.so|librt\.so'
for exe in device-carry/bin/*; do
  ldd "$exe" | awk '$3 ~ /^\// {print $3}'
done | sort -u | grep -Ev "$skip" | xargs -r -I{} cp -L {} device-carry/lib/
# Symbols are of no use there and a fifth of each executable: a device call carries the working
# tree and the pack together, 64 MiB at most.
strip --strip-unneeded device-carry/bin/* device-carry/lib/*
du -sh device-carry
rm -rf device-pack && mkdir -p device-pack
# -9e: a fifth smaller than the default, which the 64 MiB needs with the whole test set.
tar cf - device-carry | xz -T0 -9e > device-pack/carry.tar.xz
du -sh device-pack
