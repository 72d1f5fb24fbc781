#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: issue 25's check that the MPI build made here runs
# under the machine's own Open MPI. A small DamBreak tree (--branches) on GPU 0: one process,
# then 2 ranks sharing GPU 0 (each --devices 0) with the carried libmpi, then with the machine's
# libmpi (the carried MPI libraries hidden); each scenario's gauges.csv compared with the one
# process's.
set -uo pipefail
source bench/device_env.sh
out=$out/mpi-check
mkdir -p "$out"
work=/tmp/mpi-check
rm -rf "$work" && mkdir -p "$work"
printf 'at 0.1\nbranch a\n  alpha 0.1\nbranch b\n  remove obstacle\nat 0.2 in a\nbranch a_box\n  add_box 1.6 0 0 1.84 1 0.16\nbranch a_same\n' > "$work/tree.txt"
{ which mpirun; mpirun --version 2>&1 | head -2; ldconfig -p | grep -E "libmpi\.so" ; } | tee "$out/mpi.txt"
args=(--backend cuda --devices 0 --dp 0.02 --t-end 0.3 --no-frames --branches "$work/tree.txt")
"$bin"/dambreak "${args[@]}" --output-dir "$work/one" > "$out/one.log" 2>&1
echo "one process: exit $?" | tee -a "$out/mpi.txt"
compare() {
  for b in a b a_box a_same; do
    if cmp -s "$work/one/$b/gauges.csv" "$work/$1/$b/gauges.csv"; then echo "$1 $b: same bytes"; else echo "$1 $b: DIFFERENT"; fi
  done | tee -a "$out/mpi.txt"
}
timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_LIBRARY_PATH "$bin"/dambreak "${args[@]}" \
  --output-dir "$work/carried" > "$out/carried.log" 2>&1
echo "2 ranks, carried libmpi: exit $?" | tee -a "$out/mpi.txt"
compare carried
mkdir -p "$work/lib" && cp device-carry/lib/* "$work/lib/" && rm -f "$work"/lib/libmpi* "$work"/lib/libopen-* \
  "$work"/lib/libhwloc* "$work"/lib/libevent* "$work"/lib/libpmix*
LD_LIBRARY_PATH=$work/lib timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_LIBRARY_PATH \
  "$bin"/dambreak "${args[@]}" --output-dir "$work/system" > "$out/system.log" 2>&1
echo "2 ranks, the machine's libmpi: exit $?" | tee -a "$out/mpi.txt"
compare system
cp "$work/carried/branches.csv" "$out/" 2>/dev/null
tail -n 3 "$out/carried.log" "$out/system.log"
