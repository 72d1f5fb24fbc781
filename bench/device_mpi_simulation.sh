#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): issue 25's one
# simulation across MPI ranks, on GPU 0 (the machine has one).
#  1. Figure: DamBreak at dp 0.006 m (4,190,000 particles), output off, to t = 0.03 s, on one
#     device; on 1 rank x 2 devices (--devices 0,0: peer copies within one process); on 2 ranks x
#     1 device (each --devices 0: MPI messages between two processes sharing the GPU). Each run's
#     report (mips, the edge forces' copy and hidden share, the MPI edge-force time) is kept.
#  2. Check: DamBreak at dp 0.02 m to t = 0.3 s with gauges every 0.01 s on one device, on 1 rank
#     x 2 devices and on 2 ranks x 1 device: gauges.csv (heights, probe pressures, the front; the
#     same bits on any split) compared byte for byte.
#  3. The CUDA instances of every carried test (bench/device_gpu_tests.sh).
set -uo pipefail
source bench/device_env.sh
out=$out/mpi-simulation
mkdir -p "$out"
work=/tmp/mpi-simulation
rm -rf "$work" && mkdir -p "$work"
mpi=(timeout 240 mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_LIBRARY_PATH)
summary=$out/summary.txt
run() {  # name, then the command
  local name=$1
  shift
  "$@" > "$out/$name.log" 2>&1
  echo "$name: exit $?" | tee -a "$summary"
  grep -E "throughput|edge forces|MPI edge forces|dt reduction wait|Forces  " "$out/$name.log" |
    tee -a "$summary"
}

figure=(--backend cuda --dp 0.006 --t-end 0.03 --no-output)
run figure-one-device "$bin"/dambreak "${figure[@]}" --devices 0 --output-dir "$work/f1"
run figure-1-rank-x-2-devices "$bin"/dambreak "${figure[@]}" --devices 0,0 --output-dir "$work/f2"
run figure-2-ranks-x-1-device "${mpi[@]}" "$bin"/dambreak "${figure[@]}" --devices 0 \
  --output-dir "$work/fr"
for f in f1 f2 fr; do cp "$work/$f/run_report.json" "$out/report-$f.json" 2>/dev/null; done

check=(--backend cuda --dp 0.02 --t-end 0.3 --no-frames --gauge-every 0.01)
run check-one-device "$bin"/dambreak "${check[@]}" --devices 0 --output-dir "$work/one"
run check-1-rank-x-2-devices "$bin"/dambreak "${check[@]}" --devices 0,0 --output-dir "$work/two"
run check-2-ranks-x-1-device "${mpi[@]}" "$bin"/dambreak "${check[@]}" --devices 0 \
  --output-dir "$work/ranks"
for f in two ranks; do
  if cmp -s "$work/one/gauges.csv" "$work/$f/gauges.csv"; then
    echo "gauges.csv of $f: the same bytes as one device" | tee -a "$summary"
  else
    echo "gauges.csv of $f: DIFFERENT from one device" | tee -a "$summary"
  fi
done
cp "$work/one/gauges.csv" "$out/check-gauges.csv"
# Direct messages from GPU memory need a CUDA-aware MPI: refused, naming the library, if not.
"${mpi[@]}" "$bin"/dambreak "${check[@]}" --devices 0 --mpi-buffers direct \
  --output-dir "$work/direct" > "$out/check-direct.log" 2>&1
echo "--mpi-buffers direct on GPUs: exit $?" | tee -a "$summary"
grep -m1 "mpi-buffers direct" "$out/check-direct.log" | tee -a "$summary"
cp "$work/ranks/run_report.json" "$out/check-report-ranks.json" 2>/dev/null

OUT=$out bash bench/device_gpu_tests.sh | tee "$out/gpu-tests.txt"
