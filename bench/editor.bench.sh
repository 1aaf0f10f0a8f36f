#!/usr/bin/env bash
# The editor at scale (product §8 point 6; docs/dashboard.md "Speed"): with 10,000 keys x 30
# languages, the key grid's first page renders in under 500 ms, and a filter or a search answers
# in under 300 ms, in Chromium on this machine.
#
# The driver (bench/lib/editor-driver.ts) fills a project through the import API, then per round
# opens the grid in a fresh browser context (nothing cached) and again in the same context (the
# script cached), with the default languages (the base and three more) and, as the comparison,
# with all 30 chosen; then it times filters and searches, each from the click or Enter to the grid
# drawn with the answer (the page's `keys-grid` mark) and painted (the next animation frame).
# Medians over the rounds. Server pinned to BENCH_SERVER_CPU (default 0), Chromium not pinned.
# Knobs: BENCH_ROUNDS (5), BENCH_KEYS, BENCH_LANGS.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
ROUNDS=${BENCH_ROUNDS:-5}
OUT=$(mktemp /tmp/phrasebook-bench-editor.XXXXXX)
trap 'rm -f "$OUT"' EXIT

PHRASEBOOK_BIN=$(realpath "$BIN") BENCH_ROUNDS=$ROUNDS BENCH_SERVER_CPU=${BENCH_SERVER_CPU:-0} "$BUN" bench/lib/editor-driver.ts | tee "$OUT" >&2

"$BUN" -e "
  const lines = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse);
  const seed = lines.find((r) => r.seeded);
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const ms = (x) => Math.round(x) + ' ms';
  const rows = (what, chosen) => lines.filter((r) => r.what === what && (chosen === undefined || r.chosen === chosen));
  const line = (label, list, goal) => {
    const drawn = med(list.map((r) => r.drawn)), painted = med(list.map((r) => r.painted)), worst = Math.max(...list.map((r) => r.painted));
    console.log('| ' + label + ' | ' + ms(drawn) + ' | ' + ms(painted) + ' | ' + ms(worst) + ' | ' + (goal ? '< ' + goal + ' ms ' + (painted < goal ? '(met)' : '(missed)') : '') + ' |');
  };
  const cols = (chosen) => lines.find((r) => r.payload === chosen);
  console.log('## The editor at scale: ' + seed.keys.toLocaleString('en-US') + ' keys x ' + seed.languages + ' languages in Chromium\n');
  console.log('Command: \`BENCH_ROUNDS=$ROUNDS bash bench/editor.bench.sh\` (' + new Date().toISOString().slice(0, 10) + ', $(nproc) cores, server on CPU ${BENCH_SERVER_CPU:-0}, Chromium unpinned; load average before: $(cut -d' ' -f1-3 /proc/loadavg))\n');
  console.log('| measure (median of ' + rows('filter missing').length + ' rounds) | drawn | painted | worst painted | goal |');
  console.log('|---|---:|---:|---:|---:|');
  line('first page, ' + cols('default').columns + ' languages shown (the default), script cached', rows('first page, script cached', 'default'), 500);
  line('first page, ' + cols('default').columns + ' languages shown, nothing cached (first visit)', rows('first page, nothing cached', 'default'), 500);
  line('first page, all ' + cols('all').columns + ' languages shown, script cached (comparison)', rows('first page, script cached', 'all'));
  line('first page, all ' + cols('all').columns + ' languages shown, nothing cached (comparison)', rows('first page, nothing cached', 'all'));
  line('filter: missing in one language', rows('filter missing'), 300);
  line('filter: problems in one language', rows('filter problems'), 300);
  line('filter: back to all keys', rows('filter all'), 300);
  line('search (a new term each time, 2 a round)', rows('search'), 300);
  line('filter: missing, with a search', rows('filter missing with a search'), 300);
  console.log('\nThe first page\'s key list answer: ' + (cols('default').bytes / 1024).toFixed(1) + ' KB with ' + cols('default').columns + ' languages, ' + (cols('all').bytes / 1024).toFixed(1) + ' KB with all ' + cols('all').columns + ' (uncompressed JSON). Seeding through the import API took ' + seed.seed_seconds + ' s.');
"
