#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test the simulator (apt-get).
# The CUDA toolkit is optional and not installed here: without nvcc the CPU back end is built.
set -euo pipefail

# chromium renders report.html in ctest report_html_chromium (skipped without it): some 122 MB to
# download and 390 MB installed over the rest of this list, which brings most of its libraries.
packages=(build-essential cmake ninja-build libboost-program-options-dev libvtk9-dev libgtest-dev
          nlohmann-json3-dev zlib1g-dev libgdal-dev libyaml-cpp-dev libopenmpi-dev openmpi-bin
          python3 python3-numpy python3-matplotlib chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all build dependencies are installed"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
