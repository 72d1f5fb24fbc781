#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: validation/lobovsky.py --runs-only, the runs named
# by LOBOVSKY_RUNS ("NAME:DPS:BOUNDARY:SLIP" entries, space-separated); compare with --from-output
# where numpy is. Logs and runs go to $OUT/lobovsky/<NAME>/.
set -uo pipefail
source bench/device_env.sh
for run in ${LOBOVSKY_RUNS:?name the runs}; do
  IFS=: read -r name dps boundary slip <<< "$run"
  mkdir -p "$out/lobovsky"
  ${LOBOVSKY_TIMEOUT:+timeout $LOBOVSKY_TIMEOUT} python3 validation/lobovsky.py --build-dir device-carry --backend cuda --runs-only \
    --dp "$dps" --boundary "$boundary" --out "$out/lobovsky/$name" -- --slip "$slip" \
    > "$out/lobovsky/$name.log" 2>&1 || echo "$name failed"
  echo "$name: $(grep -h 'time loop' "$out"/lobovsky/"$name"/runs/*/console.log | tr -s ' ' | tr '\n' ';')"
done
