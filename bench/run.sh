#!/usr/bin/env bash
# `make bench`: runs every benchmark script beside this one (bench/*.bench.sh) in turn.
# Each script installs what it needs, measures against its baseline in the same run, and prints
# a Markdown section to paste into bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
for script in bench/*.bench.sh; do
  [ -e "$script" ] || continue
  echo "== $script"
  bash "$script"
done
