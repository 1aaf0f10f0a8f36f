#!/usr/bin/env bash
# Imports that stall the server, and bodies read for callers that may not send them (docs/publishing.md
# §6 "Not holding up other requests", docs/deploy.md "Security notes"): the compiled executable while
# four clients loop imports (a 125 KB YAML of 100 aliases, a plain 125 KB YAML, a 10 MB JSON file)
# and a CDN file, a computed public API list and /healthz are each asked every 5 ms (goal: p99 under
# 100 ms); then 24 parallel 16 MB import bodies from a `read` token, and the server's peak memory.
#
# Server pinned to BENCH_SERVER_CPU (0). Knobs: BENCH_SECONDS (20, per file), BENCH_PROBE_MS (5),
# BENCH_SCENARIOS (alias-yaml,plain-yaml,json-10mb,bodies). PHRASEBOOK_BIN picks the executable, so
# the same script measures the build before a change (before/after in bench/RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
OUT=$(mktemp /tmp/phrasebook-bench-stall.XXXXXX)
trap 'rm -f "$OUT"' EXIT

PHRASEBOOK_BIN=$(realpath "$BIN") "$BUN" bench/lib/import-stall-driver.ts | tee "$OUT" >&2

"$BUN" -e "
  const rows = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse);
  console.log('Command: \`PHRASEBOOK_BIN=$BIN BENCH_SECONDS=${BENCH_SECONDS:-20} bash bench/import-stall.bench.sh\` (' + new Date().toISOString().slice(0, 16) + ' UTC, $(nproc) cores, load average ' + require('os').loadavg().map((x) => x.toFixed(1)).join(' ') + ' at the end)\n');
  console.log('| scenario | imports (n, p50 / max) | statuses | CDN p50 / p99 / max | API p50 / p99 / max | /healthz p50 / p99 / max | failed probes |');
  console.log('|---|---|---|---|---|---|---:|');
  const f = (s) => s.p50 + ' / ' + s.p99 + ' / ' + s.max + ' ms';
  for (const r of rows.filter((r) => r.scenario.startsWith('loop:'))) {
    console.log('| four clients loop ' + r.scenario.slice(5) + ' (' + r.file_kb + ' KB), ' + r.seconds + ' s | ' + r.imports.n + ', ' + r.imports.p50 + ' / ' + r.imports.max + ' ms | ' + JSON.stringify(r.statuses) + ' | ' + f(r.cdn) + ' | ' + f(r.api) + ' | ' + f(r.healthz) + ' | ' + r.failures + ' |');
  }
  for (const r of rows.filter((r) => r.scenario === 'bodies')) {
    console.log('\n24 parallel 16 MB import bodies from a read token: server memory ' + r.rss_before_mb + ' MB before, peak ' + r.peak_after_mb + ' MB; slowest reply ' + r.slowest_reply_ms + ' ms; replies ' + JSON.stringify(r.statuses) + '.');
  }
"
