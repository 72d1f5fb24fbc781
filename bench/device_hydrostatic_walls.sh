#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: validation/hydrostatic.py --runs-only under mDBC
# with its probes and wall sensors, at the default h = 1.3 dp and at h = 1.5 dp (whose lattice
# moment is 1.0006); compare with --from-output where numpy is. Runs in $OUT/hydrostatic-*/.
set -uo pipefail
source bench/device_env.sh
for run in "h1.3:" "h1.5:--h-factor 1.5 --max-neighbours 192"; do
  IFS=: read -r name extra <<< "$run"
  # shellcheck disable=SC2086
  python3 validation/hydrostatic.py --build-dir device-carry --backend cuda --runs-only \
    --dp 0.0125 --out "$out/hydrostatic-$name" -- --boundary mdbc $extra \
    > "$out/hydrostatic-$name.log" 2>&1 || echo "hydrostatic $name failed"
  echo "hydrostatic $name: $(grep -h 'time loop' "$out"/hydrostatic-"$name"/runs/*/console.log | tr -s ' ')"
done
