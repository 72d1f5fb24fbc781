#!/usr/bin/env bash
# Builds Open MPI 4.1.4 (the version Debian 12 ships, so that the simulator built against
# Debian's headers loads it in place of Debian's libmpi) with CUDA support, into /tmp/ompi-cuda,
# and packs it as ompi-carry/ompi.tar.xz for the GPU machine (bench/device_mpi_cuda_aware.sh).
# Debian's Open MPI is not CUDA-aware; this one is (smcuda between processes on one host, CUDA
# IPC). About 20 minutes on 2 cores; needs the CUDA toolkit's headers.
set -euo pipefail
repo=$PWD
prefix=/tmp/ompi-cuda
src=/tmp/ompisrc
mkdir -p "$src" && cd "$src"
if [ ! -d openmpi-4.1.4 ]; then
  curl -sSfL -o openmpi_4.1.4.orig.tar.xz \
    http://deb.debian.org/debian/pool/main/o/openmpi/openmpi_4.1.4.orig.tar.xz
  echo "470a1da65e77fed38d30a7860fd60932  openmpi_4.1.4.orig.tar.xz" | md5sum -c
  tar xJf openmpi_4.1.4.orig.tar.xz
fi
cd openmpi-4.1.4
./configure --prefix="$prefix" --with-cuda=/usr/local/cuda --disable-mpi-fortran \
  --disable-oshmem --without-ucx --without-verbs --without-ofi --disable-static --enable-shared \
  --with-hwloc=internal --with-libevent=internal --with-pmix=internal
make -j"$(nproc)"
make install
mkdir -p "$repo/ompi-carry"
tar cJf "$repo/ompi-carry/ompi.tar.xz" -C /tmp --exclude='ompi-cuda/share/man' --exclude='*.a' \
  ompi-cuda
du -sh "$repo/ompi-carry/ompi.tar.xz"
