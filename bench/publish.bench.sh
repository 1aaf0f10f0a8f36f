#!/usr/bin/env bash
# Publish time and peak memory for 10,000 keys x 30 languages (goal: under 5 s, under 400 MB;
# docs/publishing.md §7), and what the message checks add to it (goal: under 20%; docs/messages.md
# "Cost").
#
# The driver fills a project through the import API, then per round restarts the compiled binary,
# resets its VmHWM (/proc/PID/clear_refs), publishes a new release and reads the peak RSS.
# Baseline in the same round: writing and fsync'ing the same 90 files again without compiling
# (the disk floor). Without checks, in the same rounds: the same publish by the executable of
# BASELINE_REV (default a5be303, the last revision whose publish had no message checks; set it
# empty to skip), built by bench/lib/baseline.sh, the two alternating which goes first. After the
# rounds, the check pass and the compile pass over the same snapshot are timed in one process.
# BASELINE_BIN=<executable> uses an executable already built instead of building BASELINE_REV.
# Server pinned to BENCH_SERVER_CPU. Knobs: BENCH_ROUNDS (3), BENCH_KEYS, BENCH_LANGS.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
ROUNDS=${BENCH_ROUNDS:-3}
BASELINE_REV=${BASELINE_REV-a5be303}
OUT=$(mktemp /tmp/phrasebook-bench-publish.XXXXXX)
WORK=$(mktemp -d /tmp/phrasebook-bench-publish-baseline.XXXXXX)
trap 'rm -rf "$OUT" "$WORK"' EXIT
if [ -n "${BASELINE_BIN:-}" ]; then
  BASELINE_NAME=$(basename "$(dirname "$BASELINE_BIN")")/$(basename "$BASELINE_BIN")
elif [ -n "$BASELINE_REV" ]; then
  # shellcheck source=bench/lib/baseline.sh
  . bench/lib/baseline.sh
  build_baseline "$WORK"
  BASELINE_NAME=$(git rev-parse --short "$BASELINE_REV")
fi

PHRASEBOOK_BIN=$(realpath "$BIN") BASELINE_BIN=${BASELINE_BIN:-} BENCH_ROUNDS=$ROUNDS BENCH_SERVER_CPU=${BENCH_SERVER_CPU:-0} "$BUN" bench/lib/publish-driver.ts | tee "$OUT" >&2

BASELINE_NAME=${BASELINE_NAME:-} "$BUN" -e "
  const lines = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse);
  const rows = lines.filter((r) => r.round && r.side !== 'baseline');
  const base = lines.filter((r) => r.round && r.side === 'baseline');
  const imp = lines.find((r) => r.import_seconds_per_language);
  const pass = lines.find((r) => r.pass_times);
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const pct = (a, b) => (a >= b ? '+' : '') + (100 * (a - b) / b).toFixed(1) + '%';
  const t = med(rows.map((r) => r.publish_seconds)), floor = med(rows.map((r) => r.baseline_write_seconds)), cpu = med(rows.map((r) => r.publish_cpu_seconds));
  const peak = Math.max(...rows.map((r) => r.peak_rss_mb)), before = med(rows.map((r) => r.rss_before_mb)), peakBefore = Math.max(...rows.map((r) => r.peak_before_mb));
  console.log('## Publish time and memory\n');
  console.log('Command: \`BENCH_ROUNDS=$ROUNDS bash bench/publish.bench.sh\` (' + new Date().toISOString().slice(0, 10) + ', $(nproc) cores, server on CPU ${BENCH_SERVER_CPU:-0})\n');
  console.log('| measure | value | goal |');
  console.log('|---|---:|---:|');
  console.log('| publish, ' + rows[0].keys.toLocaleString('en-US') + ' keys x ' + rows[0].languages + ' languages, with message checks (median of ' + rows.length + ') | ' + t.toFixed(2) + ' s ' + (t < 5 ? '(met)' : '(missed)') + ' | < 5 s |');
  console.log('| server CPU time for the publish (user + system, all threads; median) | ' + cpu.toFixed(2) + ' s | |');
  if (base.length) {
    const bt = med(base.map((r) => r.publish_seconds)), bc = med(base.map((r) => r.publish_cpu_seconds));
    console.log('| the same publish without message checks (' + process.env.BASELINE_NAME + ', same rounds; median) | ' + bt.toFixed(2) + ' s | |');
    console.log('| its server CPU time (median) | ' + bc.toFixed(2) + ' s | |');
    console.log('| what the checks add: wall time / CPU time | ' + pct(t, bt) + ' / ' + pct(cpu, bc) + ' ' + (cpu < bc * 1.2 ? '(met)' : '(missed)') + ' | < 20% |');
    if (rows[0].warm_publish_seconds !== undefined && base[0].warm_publish_seconds !== undefined) {
      const wt = med(rows.map((r) => r.warm_publish_seconds)), wc = med(rows.map((r) => r.warm_publish_cpu_seconds));
      const wbt = med(base.map((r) => r.warm_publish_seconds)), wbc = med(base.map((r) => r.warm_publish_cpu_seconds));
      console.log('| a second publish on the same server, with / without checks (median) | ' + wt.toFixed(2) + ' s (' + wc.toFixed(2) + ' s CPU) / ' + wbt.toFixed(2) + ' s (' + wbc.toFixed(2) + ' s CPU) | |');
      console.log('| what the checks add to it: wall time / CPU time | ' + pct(wt, wbt) + ' / ' + pct(wc, wbc) + ' ' + (wc < wbc * 1.2 ? '(met)' : '(missed)') + ' | < 20% |');
    }
  }
  if (pass) console.log('| in one process, best of 3: check pass / compile pass over the same snapshot (CPU) | ' + pass.check_cpu_seconds.toFixed(3) + ' s / ' + pass.compile_cpu_seconds.toFixed(3) + ' s | |');
  console.log('| baseline: rewrite + fsync the same ' + rows[0].languages * 3 + ' files | ' + floor.toFixed(2) + ' s | |');
  console.log('| server peak RSS during the publish (VmHWM reset just before; worst round) | ' + peak + ' MB ' + (peak < 400 ? '(met)' : '(missed)') + ' | < 400 MB |');
  console.log('| server RSS just before publishing (after start and an admin login) | ' + before + ' MB | |');
  console.log('| server peak RSS from start to before publishing (argon2 login hashing included) | ' + peakBefore + ' MB | |');
  if (rows.some((r) => !r.peak_reset)) console.log('| note | VmHWM could not be reset here: the peak covers the whole process | |');
  if (imp) console.log('| import of ' + rows[0].keys.toLocaleString('en-US') + ' keys into one language (setup) | ' + imp.import_seconds_per_language.toFixed(2) + ' s | |');
  console.log('\nRounds (with checks' + (base.length ? ' / without' : '') + '): ' + rows.map((r, i) => r.publish_seconds.toFixed(2) + ' s (' + r.publish_cpu_seconds.toFixed(2) + ' s CPU)' + (base[i] ? ' / ' + base[i].publish_seconds.toFixed(2) + ' s (' + base[i].publish_cpu_seconds.toFixed(2) + ' s CPU)' : '') + ', ' + r.peak_rss_mb + ' MB').join('; ') + '.');
"
