#!/usr/bin/env bash
# One project of 100,000 keys x 50 languages as an ordinary project (docs/deploy.md "Sizing"): the
# driver (bench/lib/scale-driver.ts) generates a file per language, pushes each with the compiled
# client to the compiled server, then measures every figure of the size goal: pushes (new, and
# every base string changed, with the server's peak memory), the key grid's pages, searches and
# filters, GET /progress and /problems, publish (time and peak memory), pull of every language,
# the key grid in Chromium (ready; a search until its one match is drawn), the database and its
# outbox, and a backup. Prints a table for bench/RESULTS.md.
# Knobs: SCALE_KEYS (100000), SCALE_LANGUAGES (50), SCALE_ROUNDS (3), SCALE_BROWSER (1; 0 skips Chromium), SCALE_KEEP (1 keeps the data dir for profiling).
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
OUT=$(mktemp /tmp/phrasebook-bench-scale.XXXXXX)
trap 'rm -f "$OUT"' EXIT
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

PHRASEBOOK_BIN=$(realpath "$BIN") "$BUN" bench/lib/scale-driver.ts | tee "$OUT" >&2

"$BUN" -e "
  const rows = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse);
  const get = (what) => rows.find((r) => r.what === what) ?? {};
  const setup = get('setup');
  const goal = (value, limit, unit) => value === undefined ? '' : '< ' + limit + ' ' + unit + (value < limit ? ' (met)' : ' (missed)');
  const ms = (r) => r.ms === undefined ? '-' : r.ms + ' ms' + (r.first_ms !== undefined ? ' (first ' + r.first_ms + ')' : '');
  console.log('## Scale: ' + setup.keys.toLocaleString('en-US') + ' keys x ' + setup.languages + ' languages (' + setup.translations.toLocaleString('en-US') + ' translations)\n');
  console.log('Command: \`SCALE_KEYS=' + setup.keys + ' SCALE_LANGUAGES=' + setup.languages + ' bash bench/scale.bench.sh\` (' + new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC, $(nproc) cores shared with other work; load average before: $LOAD_BEFORE, at the start of the driver: ' + setup.load + ')\n');
  console.log('| step | figure | goal (docs/deploy.md \"Sizing\") |');
  console.log('|---|---:|---|');
  const line = (label, figure, g = '') => console.log('| ' + label + ' | ' + figure + ' | ' + g + ' |');
  const pb = get('push new base'), po = get('push each other language'), pc = get('push changed base');
  line('push of the new base file', pb.seconds + ' s');
  line('push of each other language (median / slowest; all ' + (setup.languages - 1) + ')', po.median_seconds + ' s / ' + po.max_seconds + ' s; ' + po.total_seconds + ' s');
  line('push of every base string changed, server peak memory', pc.seconds + ' s, ' + pc.peak_mb + ' MB', goal(pc.seconds, 10, 's') + ', ' + goal(pc.peak_mb, 600, 'MB'));
  for (const r of rows.filter((r) => r.first_ms !== undefined)) line(r.what + (r.total !== undefined ? ' (' + r.total + ')' : ''), ms(r), goal(r.ms, 300, 'ms'));
  const pub = get('publish'), pull = get('pull');
  line('publish, server peak memory', pub.seconds + ' s, ' + pub.peak_mb + ' MB', goal(pub.seconds, 20, 's') + ', ' + goal(pub.peak_mb, 600, 'MB'));
  line('pull of ' + pull.languages + ' languages', pull.seconds + ' s', goal(pull.seconds, 10, 's'));
  const ready = get('chromium grid ready'), search = get('chromium search until its match');
  if (ready.ms !== undefined) {
    line('key grid in Chromium: ready (the grid painted)', ready.ms + ' ms', goal(ready.ms, 1000, 'ms'));
    line('key grid in Chromium: every answer the page asked for in (progress, counts)', ready.settled_ms + ' ms', goal(ready.settled_ms, 1000, 'ms'));
    line('key grid in Chromium: a search until its one match is drawn', search.ms + ' ms', goal(search.ms, 500, 'ms'));
  }
  const db = get('database'), bk = get('backup');
  line('database + WAL', db.db_mb + ' MB + ' + db.wal_mb + ' MB', goal(db.db_mb + db.wal_mb, 2048, 'MB'));
  line('rows: outbox events / translation history / translations', db.rows.outbox_events + ' / ' + db.rows.translation_history + ' / ' + db.rows.translations, 'no outbox rows without an endpoint');
  line('backup (time, tar size)', bk.seconds + ' s, ' + bk.mb + ' MB');
"
