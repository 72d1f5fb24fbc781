# Sourced first by the scripts that run on the GPU machine: the carried libraries and executables
# (scripts/pack_for_device.sh), the output folder ($OUT, or /tmp/out outside the device tool) and
# which GPU ran them (gpu.txt there).
export LD_LIBRARY_PATH=$PWD/device-carry/lib
bin=$PWD/device-carry/bin
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv |
  tee "$out/gpu.txt"
