#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): members of validation
# ensembles (validation/README.md, Ensembles), runs only, shared out over the GPUs: one queue per
# GPU, one member on each at a time. MEMBERS: "name:script:exe:dp:seed[:run options]" entries,
# run options with _ for spaces (e.g. "lob1:lobovsky:lobovsky:0.0025:1:--slip_free-slip"); a
# member's case script gets --t-end from T_END_<script> where set. GPUS: the GPUs (default 0),
# members dealt out in turn; an id given twice makes two queues on that GPU, which does not pay:
# two SPHERIC members at 1.05 M particles side by side on one H200 were both unfinished after
# 545 s, where one alone takes 255 s (validation/results/h200x2-walls-alpha0/). CASE_LIMIT: each
# member's time limit [s] (default 240); a member stopped there writes a checkpoint on the
# SIGTERM, which is left out of the tarball with the frames (it would not fit). With TESTS=1,
# bench/device_gpu_tests.sh first, on every GPU, beside the members. Into $OUT/ensemble.tgz: each
# member's folder (make its metrics here with --from-output) and its log, queues.log.
set -uo pipefail
source bench/device_env.sh
work_in ensemble
gpus=${GPUS:-0}
IFS=, read -r -a gpu_list <<< "$gpus"

run_member() {  # run_member GPU ENTRY
  local gpu=$1 name script exe dp seed extra t_end_var start=$SECONDS
  IFS=: read -r name script exe dp seed extra <<< "$2"
  t_end_var=T_END_$script
  local t_end=${!t_end_var:-}
  # shellcheck disable=SC2046,SC2086  # the t_end option and the run options: words, or none
  CUDA_VISIBLE_DEVICES=$gpu timeout "${CASE_LIMIT:-240}" python3 "validation/$script.py" \
    --exe "$bin/$exe" --backend cuda --dp "$dp" ${t_end:+--t-end $t_end} --runs-only \
    --out "$work/$name" -- ${extra//_/ } --perturb "$seed" > "$work/$name.log" 2>&1
  echo "$name on GPU $gpu: exit $? in $((SECONDS - start)) s"
}

# Member i goes to GPU i mod (number of GPUs); each GPU's queue runs in the background.
read -r -a members <<< "${MEMBERS:?name:script:exe:dp:seed[:run options] entries}"
for q in "${!gpu_list[@]}"; do
  (for i in "${!members[@]}"; do
     if [ $((i % ${#gpu_list[@]})) = "$q" ]; then run_member "${gpu_list[$q]}" "${members[$i]}"; fi
   done) >> "$work/queues.log" 2>&1 &
done
if [ "${TESTS:-0}" != 0 ]; then
  OUT=$work bash bench/device_gpu_tests.sh > "$work/gpu-tests-summary.txt" 2>&1
  echo "gpu tests: $(grep -c ': exit 0' "$work/gpu-tests-summary.txt") executables passed of" \
    "$(grep -c ': exit' "$work/gpu-tests-summary.txt")"
fi
wait
cat "$work/queues.log"
find "$work" \( -name '*.vtu' -o -name '*.pvd' -o -name '*.chk' -o -name '*.tmp' \) -delete
tar czf "$R/ensemble.tgz" -C "$work" .
