#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ and ompi-carry/ (a CUDA-aware build of the same
# Open MPI 4.1.4, made on the build machine by scripts/build_cuda_aware_openmpi.sh): issue 25's
# --mpi-buffers direct, GPU memory handed to MPI. DamBreak at dp 0.02 m to t = 0.3 s on GPU 0:
# one device, then 2 ranks x 1 device sharing GPU 0 with staged and with direct messages under
# the CUDA-aware library; gauges.csv compared byte for byte; then the 4.19 M-particle figure run
# with both kinds of messages.
#   mkdir -p /tmp/res && tar xJf device-pack/carry.tar.xz && \
#     OUT=/tmp/res bash bench/device_mpi_cuda_aware.sh
set -uo pipefail
source bench/device_env.sh
out=$out/mpi-cuda-aware
mkdir -p "$out"
work=/tmp/mpi-cuda-aware
rm -rf "$work" && mkdir -p "$work"
tar xJf ompi-carry/ompi.tar.xz -C /tmp  # its prefix: /tmp/ompi-cuda
export PATH=/tmp/ompi-cuda/bin:$PATH
export LD_LIBRARY_PATH=/tmp/ompi-cuda/lib:$LD_LIBRARY_PATH
summary=$out/summary.txt
{ which mpirun; mpirun --version | head -1
  ompi_info --parsable --all | grep mpi_built_with_cuda_support:value; } | tee "$summary"
mpi=(timeout 240 mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_LIBRARY_PATH -x PATH)
run() {  # name, then the command
  local name=$1
  shift
  "$@" > "$out/$name.log" 2>&1
  echo "$name: exit $?" | tee -a "$summary"
  grep -E "^MPI:|throughput|MPI edge forces|migration  |error" "$out/$name.log" | tee -a "$summary"
}
check=(--backend cuda --dp 0.02 --t-end 0.3 --no-frames --gauge-every 0.01)
run check-one-device "$bin"/dambreak "${check[@]}" --devices 0 --output-dir "$work/one"
for buffers in staged direct; do
  run "check-2-ranks-$buffers" "${mpi[@]}" "$bin"/dambreak "${check[@]}" --devices 0 \
    --mpi-buffers "$buffers" --output-dir "$work/$buffers"
  if cmp -s "$work/one/gauges.csv" "$work/$buffers/gauges.csv"; then
    echo "gauges.csv of 2 ranks, $buffers: the same bytes as one device" | tee -a "$summary"
  else
    echo "gauges.csv of 2 ranks, $buffers: DIFFERENT from one device" | tee -a "$summary"
  fi
done
figure=(--backend cuda --dp 0.006 --t-end 0.03 --no-output --devices 0)
for buffers in staged direct; do
  run "figure-2-ranks-$buffers" "${mpi[@]}" "$bin"/dambreak "${figure[@]}" \
    --mpi-buffers "$buffers" --output-dir "$work/f-$buffers"
done
