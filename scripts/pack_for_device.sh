#!/usr/bin/env bash
# Copies the built executables and the shared libraries they load that a stock CUDA image lacks
# (VTK, Boost, OpenMP, ...) into device-carry/, for running on a machine without VTK.
# There: export LD_LIBRARY_PATH=$PWD/device-carry/lib
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rm -rf device-carry && mkdir -p device-carry/bin device-carry/lib
cp "$build"/src/dambreak device-carry/bin/
for exe in bore_in_a_box column_collapse still_water; do
  if [ -e "$build/src/$exe" ]; then cp "$build/src/$exe" device-carry/bin/; fi
done
cp "$build"/tests/test_* device-carry/bin/ 2>/dev/null || true
rm -f device-carry/bin/*.cmake
# The C runtime and the compiler's own runtimes are newer on the device machine: leave them.
skip='linux-vdso|ld-linux|libc\.so|libm\.so|libgcc_s|libstdc\+\+|libpthread|libdl\.so|librt\.so'
for exe in device-carry/bin/*; do
  ldd "$exe" | awk '$3 ~ /^\// {print $3}'
done | sort -u | grep -Ev "$skip" | xargs -r -I{} cp -L {} device-carry/lib/
du -sh device-carry
