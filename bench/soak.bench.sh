#!/usr/bin/env bash
# Soak: 10 minutes of mixed load against the compiled executable (CDN hits, API lists with many
# tokens, dashboard edits, a publish every 30 s, webhook deliveries to a local HTTPS receiver,
# random unknown paths), sampling RSS, open file descriptors, p99 and errors every 30 s. The
# section it prints is appended to bench/RESULTS.md (OUT=- only prints it). Goals: zero 5xx, RSS
# and fds flat after warm-up (no growth over the last 5 minutes beyond 5%).
#
# Usage: bash bench/soak.bench.sh   (DURATION=600 SAMPLE=30; rates: CDN_RATE=200 API_RATE=60
#        EDIT_RATE=8 NOT_FOUND_RATE=20 PUBLISH_EVERY=30 TOKENS=50 KEYS=2000; BIN=path to use
#        another build than dist/phrasebook)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tools/node_modules/.bin:$PWD/node_modules/.bin:$PATH"

command -v openssl >/dev/null || { echo "openssl is missing: apt-get install openssl" >&2; exit 1; }
[ -n "${BIN:-}" ] || [ -x dist/phrasebook ] || make build >/dev/null

export BIN="${BIN:-$PWD/dist/phrasebook}"
export SERVER_CPU="${SERVER_CPU:-0}"
LOAD_CPU="${LOAD_CPU:-1}"
OUT="${OUT:-bench/RESULTS.md}"

section="$(taskset -c "$LOAD_CPU" bun bench/soak/driver.ts)"
printf '%s\n' "$section"
if [ "$OUT" != "-" ]; then
  printf '\n%s\n' "$section" >> "$OUT"
  echo "appended to $OUT" >&2
fi
