#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh, with the build before
# carried as dambreak-prev: PACK_EXTRA="dambreak-prev=PATH"): a measurement launched with fewer
# calls (one site kernel a group of sites, the front's passes deciding for themselves, one timed
# interval, one copy back) against the build before. Into $OUT, a tarball of:
#   gpu-tests/  the CUDA tests of the carried test executables (bench/device_gpu_tests.sh);
#   same-bytes.txt  gauges.csv of this build and the one before, DamBreak under DBC and mDBC, one
#                   device and two on one GPU, read every 1 ms and at every iteration: md5s;
#   costs/      DamBreak dp 0.006 m (4.19 M) to 0.15 s, instruments once a second or at every
#               iteration, both builds in turn, ROUNDS times (bench/device_costs.sh);
#   instrument-profile/  traces of iterations 200-230 under mDBC (bench/device_instrument_profile.sh);
#   measurement-kernels*  with NCU=1, each of the measurement's kernels timed alone by Nsight
#                         Compute, both builds (bench/device_measurement_kernels.sh).
set -uo pipefail
source bench/device_env.sh
work_in measurement-launches
OUT=$work bash bench/device_gpu_tests.sh
same=$work/same-bytes.txt
mkdir -p "$work/bytes"
for exe in dambreak dambreak-prev; do
  for boundary in dbc mdbc; do
    for devices in 0 0,0; do
      for every in 0.001 0.000001; do
        name=${exe}_${boundary}_${devices/,/-}_$every
        "$bin/$exe" --backend cuda --devices "$devices" --dp 0.02 --t-end 0.3 \
          --boundary "$boundary" --gauge-every "$every" --no-frames \
          --output-dir "$work/bytes/$name" > "$work/bytes/$name.log" 2>&1 ||
          echo "$name: exit $?" >> "$same"
        echo "$(md5sum < "$work/bytes/$name/gauges.csv" | cut -c1-32) $name" >> "$same"
      done
    done
  done
done
rm -rf "$work"/bytes/*/
sort "$same" | tee "$same.sorted"
OUT=$work ROUNDS=${ROUNDS:-2} RUNS="mdbc:1 mdbc:0.000001 mdbc:1::dambreak-prev \
  mdbc:0.000001::dambreak-prev dbc:1 dbc:0.000001 dbc:1::dambreak-prev \
  dbc:0.000001::dambreak-prev" bash bench/device_costs.sh
OUT=$work BOUNDARY=mdbc ROUNDS=1 bash bench/device_instrument_profile.sh
gzip "$work"/instrument-profile/*.json
if [ "${NCU:-0}" = 1 ]; then
  OUT=$work bash bench/device_measurement_kernels.sh > /dev/null
  mkdir -p "$work/prev" && OUT=$work/prev EXE=dambreak-prev bash bench/device_measurement_kernels.sh \
    > /dev/null
fi
tar czf "$R/results.tgz" -C "$work" .
