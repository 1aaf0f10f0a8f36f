#!/usr/bin/env bash
# Webhook benchmark: deliveries per second from dist/phrasebook to a local HTTPS receiver
# that answers at once, and the same with an endpoint that never answers beside it (the healthy
# endpoint's rate and latency must not suffer). Server and load generator are pinned to separate
# cores; scenarios are interleaved round by round and the table quotes medians.
#
# Usage: bash bench/webhooks.bench.sh   (ROUNDS=3 BURST=5000 RATE=250 STEADY_SECONDS=5 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tools/node_modules/.bin:$PWD/node_modules/.bin:$PATH"

command -v openssl >/dev/null || { echo "openssl is missing: apt-get install openssl" >&2; exit 1; }
[ -n "${BIN:-}" ] || [ -x dist/phrasebook ] || make build >/dev/null

export BIN="${BIN:-$PWD/dist/phrasebook}"
export SERVER_CPU="${SERVER_CPU:-0}"
LOAD_CPU="${LOAD_CPU:-1}"
taskset -c "$LOAD_CPU" bun bench/webhooks/driver.ts
