#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: DamBreak's obstacle probes P1-P8 read three ways,
# dp 0.01 m, mDBC, free-slip, to 1.2 s (the first impact on the obstacle and after), each with
# the 220 Hz filter Lobovsky's case uses: a row of readings every 0.5 ms (points), a row of means
# every 0.5 ms (--gauge-average), and a row at every iteration (--gauge-every 1e-7, the
# reference). In $OUT/probe-rows.tar.xz; compared where numpy is.
set -uo pipefail
source bench/device_env.sh
work_in probe-rows
dambreak_rows points 0 0.0005
dambreak_rows means 0 0.0005 --gauge-average
dambreak_rows every-iteration 0 1e-7
tar cf - -C "$work" . | xz -T0 -6 > "$R/probe-rows.tar.xz"
