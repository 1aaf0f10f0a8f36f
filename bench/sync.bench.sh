#!/usr/bin/env bash
# A big sync does not stall the server (docs/product.md §6, docs/publishing.md §6): the compiled
# executable pushes a 50,000-key ARB file to itself while a CDN file and a public API list
# (computed every time: PHRASEBOOK_API_CACHE_TTL=0) are requested every 5 ms; goals: every answer in
# under 100 ms throughout, and the push in under 10 s.
#
# Server pinned to BENCH_SERVER_CPU (0), client and probes to BENCH_CLIENT_CPU (1). Per round, a new
# project: probing alone first (the floor), then the push while probing, then the same push again
# (nothing to change). The server's CPU time for each push comes from /proc/<pid>/stat, which other
# load on a shared machine disturbs least. Knobs: BENCH_ROUNDS (3), BENCH_KEYS (50000),
# BENCH_PROBE_MS (5), BENCH_IDLE_SECONDS (2).
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
ROUNDS=${BENCH_ROUNDS:-3}
OUT=$(mktemp /tmp/phrasebook-bench-sync.XXXXXX)
trap 'rm -f "$OUT"' EXIT

PHRASEBOOK_BIN=$(realpath "$BIN") BENCH_ROUNDS=$ROUNDS "$BUN" bench/lib/sync-driver.ts | tee "$OUT" >&2

"$BUN" -e "
  const rows = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse);
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const worst = (f) => Math.max(...rows.map(f));
  const r0 = rows[0];
  const maxDuring = worst((r) => Math.max(r.during.cdn.max, r.during.api.max));
  const push = med(rows.map((r) => r.push_seconds));
  console.log('## Sync: a 50,000-key push beside CDN and API traffic\n');
  console.log('Command: \`BENCH_ROUNDS=$ROUNDS bash bench/sync.bench.sh\` (' + new Date().toISOString().slice(0, 10) + ', $(nproc) cores, load average ' + require('os').loadavg().map((x) => x.toFixed(1)).join(' ') + ' at the end; server on CPU ' + (process.env.BENCH_SERVER_CPU ?? '0') + ', client and probes on CPU ' + (process.env.BENCH_CLIENT_CPU ?? '1') + ')\n');
  console.log('| measure | value | goal |');
  console.log('|---|---:|---:|');
  console.log('| push of ' + r0.keys.toLocaleString('en-US') + ' new keys (' + r0.file_mb + ' MB ARB), client start to exit (median of ' + rows.length + ') | ' + push.toFixed(2) + ' s ' + (push < 10 ? '(met)' : '(missed)') + ' | < 10 s |');
  console.log('| server CPU time for that push (user + system, all threads; median) | ' + med(rows.map((r) => r.server_cpu_seconds)).toFixed(2) + ' s | |');
  console.log('| CDN file during the push: p50 / p99 / max (worst round) | ' + worst((r) => r.during.cdn.p50) + ' / ' + worst((r) => r.during.cdn.p99) + ' / ' + worst((r) => r.during.cdn.max) + ' ms | |');
  console.log('| API list (/v1/releases, computed) during the push: p50 / p99 / max (worst round) | ' + worst((r) => r.during.api.p50) + ' / ' + worst((r) => r.during.api.p99) + ' / ' + worst((r) => r.during.api.max) + ' ms | |');
  console.log('| slowest answer during any push | ' + maxDuring + ' ms ' + (maxDuring < 100 ? '(met)' : '(missed)') + ' | < 100 ms |');
  console.log('| the same probes with nothing else running: p99 / max (worst round) | ' + worst((r) => Math.max(r.idle.cdn.p99, r.idle.api.p99)) + ' / ' + worst((r) => Math.max(r.idle.cdn.max, r.idle.api.max)) + ' ms | |');
  console.log('| failed probes | ' + rows.reduce((n, r) => n + r.during.failures, 0) + ' | 0 |');
  console.log('| the same push again, nothing to change (median) | ' + med(rows.map((r) => r.unchanged_push_seconds)).toFixed(2) + ' s, server CPU ' + med(rows.map((r) => r.unchanged_server_cpu_seconds)).toFixed(2) + ' s | |');
  console.log('\nRounds: ' + rows.map((r) => r.push_seconds + ' s (' + r.server_cpu_seconds + ' s CPU), ' + r.during.cdn.n + ' CDN and ' + r.during.api.n + ' API answers during it, max ' + Math.max(r.during.cdn.max, r.during.api.max) + ' ms').join('; ') + '.');
"
