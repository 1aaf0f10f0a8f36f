#!/usr/bin/env bash
# Reading and checking hostile messages (docs/messages.md "Cost"): the times of the values the
# tests bound by counting steps (a 100,000-character value full of placeholders, 6,000 levels of
# nesting, long runs of apostrophes or braces), in-process, with the ratio of each to a value half
# its size. No server and no baseline: the steps counted are the figure that does not move with
# the machine; the times say what they cost here. Knob: BENCH_ROUNDS (9).
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
echo "## Message reading and checks on hostile values"
echo
echo "Command: \`bash bench/messages.bench.sh\` ($(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; BENCH_ROUNDS=${BENCH_ROUNDS:-9})"
echo
"$BUN" bench/lib/messages-driver.ts
