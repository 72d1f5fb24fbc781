#!/usr/bin/env bash
# The scaling series issues 10 and 11 ask for "where the CPUs allow": 1, 2, 4 and 8 CPU virtual
# devices on the 2-core development machine, balancing off and on, output off. The devices share
# two cores, so the timings say nothing about scaling; the runs show the series, the balancing and
# the report working at 4 and 8 devices. Run from the repository root after a build in build/.
set -euo pipefail
R=bench/results/2026-11-23-cpu-virtual-devices
/usr/bin/python3 validation/scaling_report.py --exe build/src/bore_in_a_box --backend cpu \
  --devices-list 1,2,4,8 --lb off,on --out $R/bore-corridor \
  --label "BoreInABox corridor dp 0.05 m, CPU virtual devices on 2 cores" \
  -- --variant corridor --dp 0.05 --t-end 0.3 --no-output
/usr/bin/python3 validation/scaling_report.py --exe build/src/dambreak --backend cpu \
  --devices-list 1,2,4,8 --lb off,on --out $R/dambreak \
  --label "DamBreak dp 0.04 m, CPU virtual devices on 2 cores" \
  -- --dp 0.04 --t-end 0.1 --no-output
