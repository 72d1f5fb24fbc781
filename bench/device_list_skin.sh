#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): DamBreak at dp 0.006 m
# (4.19 M particles, 0.05 s, output off) with the neighbour list's skin and rebuild interval
# scaled together (SKINS: "skin:every" entries; the skin a particle pair may close in `every`
# iterations stays the same share), ROUNDS times in turn: what a thinner list saves in Forces
# against what the more frequent rebuilds cost. Logs in $OUT/list-skin/.
set -uo pipefail
source bench/device_env.sh
out=$out/list-skin
mkdir -p "$out"
for round in $(seq "${ROUNDS:-2}"); do
  for entry in ${SKINS:-0.1:10 0.05:5 0.07:7 0.15:15 0.03:3}; do
    IFS=: read -r skin every <<< "$entry"
    name=skin${skin}_every${every}_$round
    "$bin"/dambreak --backend cuda --dp 0.006 --t-end 0.05 --no-output --list-skin "$skin" \
      --rebuild-every "$every" --output-dir "$out/$name" > "$out/$name.log" 2>&1
    echo "$name: exit $? $(grep -E 'mips average' "$out/$name.log" | sed 's/.*= \([0-9.]*\) mips.*/\1 mips/')" \
      "$(grep -E '^  (Forces|BuildNeibs) ' "$out/$name.log" | tr -s ' ' | tr '\n' ';')" \
      "$(grep -E 'neighbours +at most' "$out/$name.log" | tr -s ' ')"
  done
done
