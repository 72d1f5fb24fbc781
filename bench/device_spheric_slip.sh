#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: SPHERIC test 2 (validation/spheric_dambreak.py,
# --runs-only) under mDBC with free-slip walls at dp 0.01, and at dp 0.02 each of mDBC no-slip,
# mDBC free-slip and DBC free-slip; compare with --from-output where numpy is.
set -uo pipefail
source bench/device_env.sh
spheric() {  # spheric OUT DP OPTIONS...
  local dir=$1 dp=$2; shift 2
  python3 validation/spheric_dambreak.py --build-dir device-carry --backend cuda --runs-only \
    --dp "$dp" --out "$out/$dir" -- "$@" > "$out/$dir.log" 2>&1
  echo "$dir: exit $?"
}
spheric mdbc-free-dp0.01 0.01 --boundary mdbc --slip free-slip
spheric mdbc-noslip-dp0.02 0.02 --boundary mdbc
spheric mdbc-free-dp0.02 0.02 --boundary mdbc --slip free-slip
spheric dbc-free-dp0.02 0.02 --boundary dbc --slip free-slip
