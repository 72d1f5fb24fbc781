#!/usr/bin/env bash
# Last step of a device command: packs everything under $OUT into $OUT/bundle.tar.gz, since the
# device tool brings back neither deep folders nor names with odd characters. Here:
# tar -xzf <files_at>/bundle.tar.gz -C <dir>.
set -euo pipefail
out=${OUT:?OUT is not set}
tar -C "$out" -czf /tmp/bundle.tar.gz .
find "$out" -mindepth 1 -delete
mv /tmp/bundle.tar.gz "$out/bundle.tar.gz"
ls -l "$out"
