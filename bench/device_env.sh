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

# DamBreak's instruments read at dp 0.01 m, mDBC, free-slip, to 1.2 s, filtered at 220 Hz (the
# impact on the obstacle and after), into $work/NAME: dambreak_rows NAME DEVICES EVERY [OPTION].
dambreak_rows() {
  local name=$1 devices=$2 every=$3 extra=${4:-} start=$SECONDS
  # shellcheck disable=SC2086  # extra: an option or none
  timeout 150 "$bin/dambreak" --backend cuda --devices "$devices" --dp 0.01 --t-end 1.2 \
    --boundary mdbc --slip free-slip --no-frames --gauge-every "$every" $extra \
    --gauge-filter 220 --output-dir "$work/$name" > "$work/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/$name.log")"
}
