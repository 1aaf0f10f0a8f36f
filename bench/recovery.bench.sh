#!/usr/bin/env bash
# The restore drill at a size (docs/deploy.md "Continuous replication", "Restore drill"): writes a
# second without and with replication, Litestream's first copy, a publish with its files copied
# beside the replica, then the server's process group killed mid-write with its data dir deleted,
# `phrasebook restore` timed, and the recovery point measured from the acknowledged writes. The
# replica is a folder on the same disk (the figures of a network replica depend on the network).
# Knobs: BENCH_KEYS (100000), BENCH_LANGS (10), BENCH_WRITE_SECONDS (10), BENCH_DATA_DIR (a data
# dir to take instead of seeding, consumed: the one SCALE_KEEP=1 bash bench/scale.bench.sh keeps).
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
[ -x "$BIN" ] || make build >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
PHRASEBOOK_BIN=$(realpath "$BIN") PHRASEBOOK_LITESTREAM=$(realpath node_modules/@flydotio/litestream-linux-x64/litestream) "$BUN" bench/lib/recovery-driver.ts
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
