#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): --gradient-correction
# (kernels/gradient_correction.h) against the same build without it. Into $OUT/results.tgz:
# gpu-tests.log (the CUDA tests of the correction: kernel chain, several devices on one GPU);
# cases/ (validation runs, --runs-only, under mDBC with free-slip walls as the validation cases run
# them, the collapse with its own walls; the metrics come from --from-output where numpy is);
# costs/ (DamBreak's mips, 4.19 M particles to 0.15 s under mDBC); with BYTES=1, same-bytes.txt (gauges.csv's md5 of DamBreak at dp
# 0.02 m to 0.3 s read at every iteration, under mDBC and DBC, without the correction: the bits
# of the build before it). CASES: which cases, "name:script:exe:dp[:options]" entries
# (options with _ for spaces), or "name:script:exe:dp:[options]:run options" for options of the
# runs themselves; the name ends in -on or -off, the correction's setting. COSTS=0 skips the costs,
# TESTS=0 the tests. WALLS, other wall options than "--boundary mdbc --slip free-slip" for the
# tank and SPHERIC; LOBOVSKY_WALLS, other than "--slip free-slip" for Lobovsky (e.g. "--slip
# problem --free-slip-walls sides,upstream,downstream": the floor drags); the collapse keeps its
# own.
set -uo pipefail
source bench/device_env.sh
work_in gradient-correction
if [ "${TESTS:-1}" != 0 ]; then
  "$bin/test_kernels" --gtest_filter='*GradientCorrection*:*WallForces*:*Mdbc*'
  "$bin/test_multi_device" --gtest_filter='*Cuda*:SeveralGpus*'
fi > "$work/gpu-tests.log" 2>&1
echo "gpu tests: $(grep -cE '^\[       OK' "$work/gpu-tests.log") ok," \
  "$(grep -cE '^\[  FAILED  \].*\(' "$work/gpu-tests.log") failed," \
  "$(grep -cE '^\[  SKIPPED \].*\(' "$work/gpu-tests.log") skipped"
if [ "${BYTES:-0}" != 0 ]; then  # without the correction, gauges.csv as before it (md5s)
  for boundary in mdbc dbc; do
    "$bin/dambreak" --backend cuda --dp 0.02 --t-end 0.3 --boundary "$boundary" \
      --gauge-every 0.000001 --no-frames --output-dir "$work/bytes-$boundary" \
      > "$work/bytes-$boundary.log" 2>&1
    echo "$(md5sum < "$work/bytes-$boundary/gauges.csv" | cut -c1-32) $boundary" |
      tee -a "$work/same-bytes.txt"
    rm -rf "${work:?}/bytes-$boundary"
  done
fi
default_cases="tank-off:hydrostatic:still_water:0.0125:--t-end_4 tank-on:hydrostatic:still_water:0.0125:--t-end_4
  tankslope-off:hydrostatic:still_water_slope:0.0125:--t-end_4
  spheric-off:spheric_dambreak:dambreak:0.02 spheric-on:spheric_dambreak:dambreak:0.02
  collapse-off:column_collapse:column_collapse:0.02 collapse-on:column_collapse:column_collapse:0.02
  lobovsky-off:lobovsky:lobovsky:0.005 lobovsky-on:lobovsky:lobovsky:0.005"
mkdir -p "$work/cases"
for c in ${CASES:-$default_cases}; do
  IFS=: read -r name script exe dp options extra <<< "$c"
  script_options=${options//_/ }
  run_options=${extra//_/ }
  correction=${name##*-}  # on | off
  start=$SECONDS
  # Lobovsky's case sets the walls' model itself (mDBC by default); the collapse's side walls are
  # free-slip and its floor and back wall not, as the problem sets them.
  walls=${WALLS:---boundary mdbc --slip free-slip}
  [ "$script" = lobovsky ] && walls=${LOBOVSKY_WALLS:---slip free-slip}
  [ "$script" = column_collapse ] && walls="--boundary mdbc"
  # shellcheck disable=SC2086  # script_options, walls, run_options: options, or none
  timeout "${CASE_LIMIT:-240}" python3 "validation/$script.py" --exe "$bin/$exe" --backend cuda \
    --dp "$dp" $script_options --runs-only --out "$work/cases/$name" -- $walls \
    --gradient-correction "$correction" $run_options > "$work/cases/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s"
done
if [ "${COSTS:-1}" != 0 ]; then
  mkdir -p "$work/costs"
  for round in 1 2; do
    for correction in off on; do
      name=mdbc_${correction}_$round
      "$bin/dambreak" --backend cuda --dp 0.006 --t-end 0.15 --no-frames --boundary mdbc \
        --gradient-correction "$correction" --output-dir "$work/costs/$name" \
        > "$work/costs/$name.log" 2>&1
      echo "$name: exit $? $(grep -E 'mips average' "$work/costs/$name.log")"
      cp "$work/costs/$name/run_report.json" "$work/costs/$name.json" 2>/dev/null
      rm -rf "${work:?}/costs/$name"
    done
  done
fi
tar czf "$R/results.tgz" -C "$work" .
