#!/usr/bin/env bash
# Hostile writes, each as an attacker runs it against the compiled server (docs/deploy.md "Security notes"):
# a slow import and another project's tiny one (and the slow one's caller hanging up); a translator
# saving 100,000-character values for 10 s; 12 parallel 16 MB uploads from a read token with
# Expect: 100-continue. Driver: bench/lib/hostile-writes-driver.ts. Knobs: BENCH_SCENARIOS
# (imports,writes,uploads). PHRASEBOOK_BIN picks the executable, so the same script measures the
# build before a change.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "Command: \`PHRASEBOOK_BIN=$BIN bash bench/hostile-writes.bench.sh\` ($(date -u +'%Y-%m-%d %H:%M') UTC, $(nproc) cores shared with other work; load average before: $LOAD_BEFORE)"
PHRASEBOOK_BIN=$(realpath "$BIN") "$BUN" bench/lib/hostile-writes-driver.ts
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
