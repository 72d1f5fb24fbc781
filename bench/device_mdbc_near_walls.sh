#!/usr/bin/env bash
# Runs on the two-GPU machine (nvidia-h100-x2 or nvidia-h200-x2) over device-carry/
# (scripts/pack_for_device.sh, with the builds to compare as PACK_EXTRA="dambreak-NAME=PATH ..."):
# what the mDBC walls cost in each build. For each executable in BUILDS (default "dambreak": this
# build), DamBreak at 4.19 M particles to BENCH_T_END (0.3 s) under mDBC on one GPU and on two
# with balancing on (bench/device_reports.sh), into $OUT/mdbc-<build>/; the same under DBC with
# this build, for the speedup beside it, and the CUDA tests of the carried test executables
# (each left out with DBC= or TESTS=); ncu's view of the mDBC kernel on one GPU and on two in
# each build (NCU=1); each build's instruments over the same short run, to compare (SAME=1).
# Everything in $OUT/results.tgz.
set -uo pipefail
source bench/device_env.sh
work_in mdbc-near-walls
reports() {  # NAME EXE BOUNDARY
  OUT=$work/$1 BENCH_EXE=$bin/$2 BENCH_T_END=${BENCH_T_END:-0.3} BENCH_ARGS="--boundary $3" \
    BENCH_RUNS=${BENCH_RUNS:-"0:off 0,1:on"} timeout 240 bash bench/device_reports.sh \
    > "$work/$1.log" 2>&1
  echo "$1: exit $?"
  grep -h "time loop\|mDBC walls" "$work/$1"/dambreak/runs/*/console.log
}
for build in ${BUILDS:-dambreak}; do reports "mdbc-$build" "$build" mdbc; done
if [ -n "${DBC-1}" ]; then reports dbc-dambreak dambreak dbc; fi
if [ -n "${TESTS-1}" ]; then
  mkdir -p "$work/gpu-tests"
  for exe in "$bin"/test_*; do
    test=$(basename "$exe")
    timeout 300 "$exe" --gtest_filter='*Cuda*:*Gpu*' > "$work/gpu-tests/$test.log" 2>&1
    echo "$test: exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$work/gpu-tests/$test.log"
  done
  grep -h "differ" "$work"/gpu-tests/*.log
fi
if [ -n "${NCU:-}" ] && command -v ncu > /dev/null; then
  for build in ${BUILDS:-dambreak}; do
    for devices in 0 0,1; do
      timeout 150 ncu --clock-control none -k regex:mdbc_kernel -s 400 -c 4 \
        --section SpeedOfLight --section Occupancy --section LaunchStats \
        --section WarpStateStats --section SchedulerStats \
        "$bin/$build" --backend cuda --devices $devices --lb off --dp 0.006 --t-end 0.02 \
        --no-output --boundary mdbc --output-dir "$work/ncu-$build-$devices-run" \
        > "$work/ncu-$build-$devices.txt" 2>&1
      echo "ncu $build --devices $devices: exit $?"
      grep -E "mdbc_kernel|Duration|Registers Per|Achieved Occupancy|Avg. Active Threads" \
        "$work/ncu-$build-$devices.txt" | sed 's/(sph::MdbcArgs.*Device/ device/'
    done
  done
fi
# The same run's instruments from each build, byte for byte (SAME=1): the builds compute alike.
if [ -n "${SAME:-}" ]; then
  for build in ${BUILDS:-dambreak}; do
    timeout 60 "$bin/$build" --backend cuda --dp 0.02 --t-end 0.3 --boundary mdbc \
      --gauge-every 0.001 --no-frames --output-dir "$work/same-$build" > "$work/same-$build.log" 2>&1
    echo "same-$build: exit $?; $(md5sum < "$work/same-$build/gauges.csv")"
  done
fi
tar czf "$R/results.tgz" -C "$work" .
