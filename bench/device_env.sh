# Sourced first by the scripts that run on the GPU machine: the carried libraries and executables
# (scripts/pack_for_device.sh), the output folder ($OUT, or /tmp/out outside the device tool) and
# which GPU ran them (gpu.txt there).
export LD_LIBRARY_PATH=$PWD/device-carry/lib
bin=$PWD/device-carry/bin
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv |
  tee "$out/gpu.txt"

# For a script that brings its results back as one tarball (the device tool returns 8 files):
# work in /tmp/<name>, which becomes $OUT for the scripts it calls; $R is the tool's $OUT, where
# the script ends with: tar czf "$R/results.tgz" -C "$work" .
work_in() {
  R=$out
  work=/tmp/$1
  rm -rf "$work" && mkdir -p "$work"
  export OUT=$work
  cp "$R/gpu.txt" "$work/"
}
