#!/usr/bin/env bash
# Instructions per request on the hot paths (docs/cdn.md "Speed"), counted by callgrind: unlike
# requests/s or CPU time, the count is the same whatever else the machine runs, so a change to the
# hot path can be judged on a shared machine. Each mode runs bench/lib/hot-path.ts under callgrind
# with instrumentation off during set-up; only the measured loop of BENCH_REQUESTS requests is counted.
# This counts `app.handle` (ours) and the floor handler, not Bun's HTTP layer, which both share.
# Usage: bash bench/hot-path.sh [mode...]   (default: floor cdn cdn-log cdn-gzip cdn-latest api api-log;
#        the API's cache misses: api-miss api-miss-name api-miss-pages api-miss-search api-miss-invalid,
#        and api-miss-routed, the default page answered through the router)
#        KEEP=<dir> keeps each mode's callgrind output there, for callgrind_annotate.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
REQUESTS=${BENCH_REQUESTS:-5000}
MODES=("$@")
[ ${#MODES[@]} -gt 0 ] || MODES=(floor cdn cdn-log cdn-gzip cdn-latest api api-log)
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
WORK=$(mktemp -d /tmp/phrasebook-hot-path.XXXXXX)
trap '[ -z "${KEEP:-}" ] || { mkdir -p "$KEEP"; cp "$WORK"/*.out* "$KEEP"/; }; rm -rf "$WORK"' EXIT

wait_file() { while [ ! -e "$1" ]; do sleep 0.2; done; }
echo "| mode | instructions per request |"
echo "|---|---:|"
for mode in "${MODES[@]}"; do
  out="$WORK/$mode.out"
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" "$BUN" bench/lib/hot-path.ts "$mode" "$REQUESTS" "$WORK/$mode" >"$WORK/$mode.log" 2>&1 &
  pid=$!
  wait_file "$WORK/$mode.ready"
  callgrind_control --instr=on "$pid" >/dev/null 2>&1
  touch "$WORK/$mode.go"
  wait_file "$WORK/$mode.done"
  callgrind_control --instr=off "$pid" >/dev/null 2>&1
  touch "$WORK/$mode.exit"
  wait "$pid"
  total=$(awk '/^totals:/ { s += $2 } END { print s + 0 }' "$out"*)
  echo "| $mode | $(awk -v t="$total" -v n="$REQUESTS" 'BEGIN { printf "%.0f", t / n }') |"
done
