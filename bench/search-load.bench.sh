#!/usr/bin/env bash
# Searches and counts of a few callers must not slow the CDN (docs/dashboard.md "Speed",
# docs/deploy.md "Sizing"): the compiled server on a project of 100,000 keys x 50 languages; each
# candidate search alone (the two-word `checkout payment` of the size goal among them), then a
# small project's CDN `latest` file asked every 5 ms, alone and while four viewers loop the slowest
# candidate (goal: CDN p99 under 100 ms). Driver: bench/lib/search-load-driver.ts.
# Knobs: SEARCH_KEYS (100000), SEARCH_LANGUAGES (50), SEARCH_ROUNDS (5), SEARCH_SECONDS (20),
# BENCH_PROBE_MS (5), SEARCH_DATA_DIR (keep the seeded data dir there, and reuse it next time:
# seeding 100,000 x 50 takes many minutes). PHRASEBOOK_BIN picks the executable.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
OUT=$(mktemp /tmp/phrasebook-bench-search.XXXXXX)
trap 'rm -f "$OUT"' EXIT
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

PHRASEBOOK_BIN=$(realpath "$BIN") "$BUN" bench/lib/search-load-driver.ts | tee "$OUT" >&2

"$BUN" -e "
  const rows = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse);
  console.log('Command: \`PHRASEBOOK_BIN=$BIN SEARCH_KEYS=${SEARCH_KEYS:-100000} SEARCH_LANGUAGES=${SEARCH_LANGUAGES:-50} bash bench/search-load.bench.sh\` (' + new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC, $(nproc) cores shared with other work; load average before: $LOAD_BEFORE, after: ' + require('os').loadavg().map((x) => x.toFixed(1)).join(' ') + ')\n');
  console.log('| read, alone | median (first) | total |');
  console.log('|---|---:|---:|');
  for (const r of rows.filter((r) => r.first_ms !== undefined)) console.log('| ' + r.what + ' | ' + r.ms + ' ms (' + r.first_ms + ') | ' + r.total + ' |');
  const f = (s) => s.p50 + ' / ' + s.p99 + ' / ' + s.max + ' ms (' + s.n + ' answers)';
  const alone = rows.find((r) => r.what === 'cdn alone');
  const loop = rows.find((r) => r.what.startsWith('cdn while'));
  console.log('\n| CDN latest (small file) | p50 / p99 / max |');
  console.log('|---|---|');
  console.log('| alone | ' + f(alone.cdn) + ' |');
  console.log('| while four viewers loop \"' + loop.search + '\" (' + loop.seconds + ' s; searches ' + f(loop.searches) + ', statuses ' + JSON.stringify(loop.statuses) + ') | ' + f(loop.cdn) + ' |');
"
