#!/usr/bin/env bash
# The mirror at size (docs/deploy.md "Object storage and CDN purge"): one project of 100,000 keys x
# 50 languages; a publish with the mirror on still answers in under 20 s, and the bucket holds the
# release (every pinned and latest object) within 60 s of that answer. The driver
# (bench/lib/mirror-driver.ts) pushes the project with the compiled client to the compiled server,
# publishes once without the mirror (the baseline of the same run), restarts the server with the
# mirror to s3rver on loopback (the full pass of that release is timed too), and publishes again.
# s3rver runs in the driver's process and shares the machine: its speed is part of the figure.
# Knobs: MIRROR_KEYS (100000), MIRROR_LANGUAGES (50), MIRROR_KEEP (1 keeps the folders).
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
OUT=$(mktemp /tmp/phrasebook-bench-mirror.XXXXXX)
trap 'rm -f "$OUT"' EXIT
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

PHRASEBOOK_BIN=$(realpath "$BIN") "$BUN" bench/lib/mirror-driver.ts | tee "$OUT" >&2

"$BUN" -e "
  const rows = require('fs').readFileSync('$OUT', 'utf8').trim().split('\n').map(JSON.parse);
  const get = (what) => rows.find((r) => r.what === what) ?? {};
  const setup = get('setup');
  const goal = (value, limit, unit) => '< ' + limit + ' ' + unit + (value < limit ? ' (met)' : ' (missed)');
  console.log('## Mirror: ' + setup.keys.toLocaleString('en-US') + ' keys x ' + setup.languages + ' languages\n');
  console.log('Command: \`MIRROR_KEYS=' + setup.keys + ' MIRROR_LANGUAGES=' + setup.languages + ' bash bench/mirror.bench.sh\` (' + new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC, $(nproc) cores shared with other work; load average before: $LOAD_BEFORE, at the start of the driver: ' + setup.load + ')\n');
  console.log('| step | figure | goal |');
  console.log('|---|---:|---|');
  const plain = get('publish without the mirror'), pass = get('full pass of a release at start'), pub = get('publish with the mirror');
  console.log('| publish, no mirror (baseline) | ' + plain.seconds + ' s | |');
  console.log('| full pass at start: the bucket holds the release published before (' + pass.objects + ' objects) | ' + pass.copy_seconds + ' s after the start | |');
  console.log('| publish with the mirror on | ' + pub.seconds + ' s | ' + goal(pub.seconds, 20, 's') + ' |');
  console.log('| from its answer until the bucket holds the release (' + pub.objects + ' objects, pinned and latest) | ' + pub.held_seconds + ' s | ' + goal(pub.held_seconds, 60, 's') + ' |');
  console.log('| server peak memory, publish and copies | ' + pub.peak_mb + ' MB | < 600 MB |');
"
