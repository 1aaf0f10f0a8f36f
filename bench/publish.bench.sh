#!/usr/bin/env bash
# Publish time and peak memory for 10,000 keys x 30 languages (goal: under 5 s, under 400 MB;
# docs/publishing.md §7).
#
# The driver fills a project through the import API, then per round restarts the compiled binary,
# resets its VmHWM (/proc/PID/clear_refs), publishes a new release and reads the peak RSS.
# Baseline in the same round: writing and fsync'ing the same 90 files again without compiling
# (the disk floor). Server pinned to BENCH_SERVER_CPU. Knobs: BENCH_ROUNDS (3), BENCH_KEYS, BENCH_LANGS.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
ROUNDS=${BENCH_ROUNDS:-3}
OUT=$(mktemp /tmp/phrasebook-bench-publish.XXXXXX)
trap 'rm -f "$OUT"' EXIT

PHRASEBOOK_BIN=$(realpath "$BIN") BENCH_ROUNDS=$ROUNDS BENCH_SERVER_CPU=${BENCH_SERVER_CPU:-0} "$BUN" bench/lib/publish-driver.ts | tee "$OUT" >&2

"$BUN" -e "
  const rows = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse).filter((r) => r.round);
  const imp = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse).find((r) => r.import_seconds_per_language);
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const t = med(rows.map((r) => r.publish_seconds)), floor = med(rows.map((r) => r.baseline_write_seconds));
  const peak = Math.max(...rows.map((r) => r.peak_rss_mb)), before = med(rows.map((r) => r.rss_before_mb)), peakBefore = Math.max(...rows.map((r) => r.peak_before_mb));
  console.log('## Publish time and memory\n');
  console.log('Command: \`BENCH_ROUNDS=$ROUNDS bash bench/publish.bench.sh\` (' + new Date().toISOString().slice(0, 10) + ', $(nproc) cores, server on CPU ${BENCH_SERVER_CPU:-0})\n');
  console.log('| measure | value | goal |');
  console.log('|---|---:|---:|');
  console.log('| publish, ' + rows[0].keys.toLocaleString('en-US') + ' keys x ' + rows[0].languages + ' languages (median of ' + rows.length + ') | ' + t.toFixed(2) + ' s ' + (t < 5 ? '(met)' : '(missed)') + ' | < 5 s |');
  console.log('| server CPU time for the publish (user + system, all threads; median) | ' + med(rows.map((r) => r.publish_cpu_seconds)).toFixed(2) + ' s | |');
  console.log('| baseline: rewrite + fsync the same ' + rows[0].languages * 3 + ' files | ' + floor.toFixed(2) + ' s | |');
  console.log('| server peak RSS during the publish (VmHWM reset just before; worst round) | ' + peak + ' MB ' + (peak < 400 ? '(met)' : '(missed)') + ' | < 400 MB |');
  console.log('| server RSS just before publishing (after start and an admin login) | ' + before + ' MB | |');
  console.log('| server peak RSS from start to before publishing (argon2 login hashing included) | ' + peakBefore + ' MB | |');
  if (rows.some((r) => !r.peak_reset)) console.log('| note | VmHWM could not be reset here: the peak covers the whole process | |');
  if (imp) console.log('| import of ' + rows[0].keys.toLocaleString('en-US') + ' keys into one language (setup) | ' + imp.import_seconds_per_language.toFixed(2) + ' s | |');
  console.log('\nRounds: ' + rows.map((r) => r.publish_seconds.toFixed(2) + ' s / ' + r.peak_rss_mb + ' MB').join(', ') + '.');
"
