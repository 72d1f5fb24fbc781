#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: the readings' filter (--gauge-average with
# --gauge-filter, src/instruments/streaming_low_pass.h) on the CUDA back end. DamBreak's probes,
# dp 0.01 m, mDBC, free-slip, to 1.2 s, 220 Hz: rows of 0.5 ms means on one device and on two
# sharing the GPU (`0,0`), and a row at every iteration (--gauge-every 1e-7) filtered as a whole.
# Each row of the first's gauges_filtered.csv should be the every-iteration run's line at the
# same time, digit for digit, and `0,0`'s files the same bytes. Then the CUDA instances of every
# carried test. In $OUT/streamed-filter.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in streamed-filter
dambreak_rows means 0 0.0005 --gauge-average
split=${SPLIT:-0,0}
dambreak_rows "means-$split" "$split" 0.0005 --gauge-average
dambreak_rows every-iteration 0 1e-7
for f in gauges.csv gauges_filtered.csv gauges_peaks.csv; do
  cmp "$work/means/$f" "$work/means-$split/$f" && echo "$f: the same bytes on 0 and $split"
done
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def lines(name):
    with open(f"{work}/{name}/gauges_filtered.csv") as f:
        return f.read().splitlines()
rows, each = lines("means"), lines("every-iteration")
at = {line.split(",", 1)[0]: line for line in each[1:]}
same = sum(1 for line in rows[1:] if at.get(line.split(",", 1)[0]) == line)
print(f"streamed filter: {same} of {len(rows) - 1} rows the every-iteration filter's line "
      f"({len(each) - 1} readings); columns the same: {rows[0] == each[0]}")
PY
OUT=$work bash bench/device_gpu_tests.sh > "$work/gpu-tests.txt" 2>&1
echo "gpu tests: $(grep -c 'PASSED' "$work/gpu-tests.txt") PASSED lines"
grep -E "FAILED|exit [1-9]" "$work/gpu-tests.txt"
tar cf - -C "$work" . | xz -T0 -6 > "$R/streamed-filter.tar.xz"
