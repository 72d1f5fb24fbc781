# Sourced by the bench scripts: one run of a scaling series in the layout
# validation/scaling_report.py --from-runs reads.
#
# series_run SERIES_DIR DEVICES LB TRACE_WINDOW EXE ARGS...
#   runs EXE --backend cuda --devices DEVICES --lb LB --no-output ARGS... into
#   SERIES_DIR/runs/<config>/ (config n1, or n<N>-lb-<LB> with N > 1 devices), with the command and
#   its output in console.log; runs on several devices also write a trace of TRACE_WINDOW
#   (iterations A:B) and validation/trace_overlap.py's figures (overlap.txt, overlap.json).
series_run() {
  local series=$1 devices=$2 lb=$3 window=$4 exe=$5
  shift 5
  local n=$(( $(tr -cd , <<< "$devices" | wc -c) + 1 ))
  local config=n$n trace=()
  [ "$n" -gt 1 ] && config=n$n-lb-$lb
  local dir=$series/runs/$config
  mkdir -p "$dir"
  [ "$n" -gt 1 ] && trace=(--trace "$dir/trace.json" --trace-iterations "$window")
  local cmd=("$exe" --backend cuda --devices "$devices" --lb "$lb" --no-output --output-dir "$dir"
             "${trace[@]}" "$@")
  { echo "\$ ${cmd[*]}"; "${cmd[@]}"; echo "# exit code $?"; } > "$dir/console.log" 2>&1
  tail -n 40 "$dir/console.log"
  if [ -f "$dir/trace.json" ]; then
    python3 validation/trace_overlap.py "$dir/trace.json" --json "$dir/overlap.json" \
      | tee "$dir/overlap.txt"
  fi
}
