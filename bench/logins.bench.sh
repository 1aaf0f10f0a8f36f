#!/usr/bin/env bash
# What a burst of failed sign-ins costs the server (docs/deploy.md "Security notes"): server CPU for
# 60 sign-ins for one account at once, against the floor of the 5 password checks the limit lets
# through, sent one after another, in the same round. The test (test/adversarial/logins.test.ts)
# counts the checks; this gives their CPU. Knobs: BENCH_ROUNDS (3), BENCH_BURST (60).
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
echo "## Sign-in bursts: server CPU against the checks the limit allows"
echo
echo "Command: \`bash bench/logins.bench.sh\` ($(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; BENCH_ROUNDS=${BENCH_ROUNDS:-3})"
echo
PHRASEBOOK_BIN=$(realpath "$BIN") "$BUN" bench/lib/logins-driver.ts
