#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/: the checkpoint reader, the config file) with clang and
# runs each for SPH_FUZZ_SECONDS (default 60) over its corpus; a finding fails the run and leaves
# its input as crash-*/leak-*/timeout-* in build-fuzz/fuzz/. Installs clang's fuzzer runtime and
# OpenMP with apt-get where missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
missing=()
for p in clang libclang-rt-14-dev libomp-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
cmake --preset fuzz -G Ninja -DSPH_FUZZ_SECONDS="${SPH_FUZZ_SECONDS:-60}" >/dev/null
cmake --build --preset fuzz -j "$(nproc)"
# Each target's closing statistics (executions, corpus growth) and any finding. The targets run
# side by side, one a core: each still gets its SPH_FUZZ_SECONDS, the whole takes less.
ctest --preset fuzz --verbose -j "$(nproc)" 2>&1 |
  grep -E "stat::number_of_executed_units|stat::new_units_added|Test +#|tests passed|tests failed|SUMMARY|ERROR|Test unit written"
