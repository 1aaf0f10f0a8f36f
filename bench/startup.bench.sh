#!/usr/bin/env bash
# Start-up time (docs/architecture.md "Start-up"). Goals: a client command (`version`, `--help`,
# `status` against a server that does not answer) under 60 ms; `serve`, from the spawn to its first
# healthy GET /healthz, under 150 ms, on a fresh and on an existing data dir.
#
# Floor in the same rounds: bench/lib/startup-floor.ts compiled with the same `bun build --compile`
# (a hello-world for the commands, a bare Bun.serve answering /healthz for serve). Baseline in the
# same rounds: the executable of BASELINE_REV (default 6dc04c9, the last build before start-up was
# worked on; empty to skip), built by bench/lib/baseline.sh; BASELINE_BIN=<executable> uses one
# already built. The existing data dir of each executable is made by its own `demo` (a project with
# three languages and about 50 keys, a published release, a token) and opened again every round.
# Every round runs every case once, in an order that rotates (bench/lib/startup-driver.ts); the
# summary gives the median and the range of the rounds, and the CPU time (all threads) beside it.
# Knobs: BENCH_ROUNDS (15).
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=$(realpath "${PHRASEBOOK_BIN:-dist/phrasebook}")
[ -x "$BIN" ] || make build >/dev/null
ROUNDS=${BENCH_ROUNDS:-15}
BASELINE_REV=${BASELINE_REV-6dc04c9}
WORK=$(mktemp -d /tmp/phrasebook-bench-startup.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

"$BUN" build --compile --minify-whitespace --minify-syntax bench/lib/startup-floor.ts --outfile "$WORK/floor" >/dev/null
if [ -n "${BASELINE_BIN:-}" ]; then
  BASELINE_NAME=$(basename "$(dirname "$BASELINE_BIN")")/$(basename "$BASELINE_BIN")
elif [ -n "$BASELINE_REV" ]; then
  # shellcheck source=bench/lib/baseline.sh
  . bench/lib/baseline.sh
  build_baseline "$WORK"
  BASELINE_NAME=$(git rev-parse --short "$BASELINE_REV")
fi

# An existing data dir: what `demo` leaves, written by the executable that will open it.
existing() {
  local bin=$1 dir=$2 port
  port=$(( 20000 + RANDOM % 20000 ))
  PHRASEBOOK_DATA_DIR=$dir PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT=$port "$bin" demo >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.1
  done
  kill "$pid"
  wait "$pid" || true
  [ -f "$dir/phrasebook.db" ] || { echo "demo did not make $dir" >&2; exit 1; }
}
existing "$BIN" "$WORK/existing"
[ -n "${BASELINE_BIN:-}" ] && existing "$BASELINE_BIN" "$WORK/existing-baseline"

TOKEN="pb_$(printf 'a%.0s' $(seq 1 43))"
SPEC="$WORK/spec.json"
BIN=$BIN BASELINE_BIN=${BASELINE_BIN:-} FLOOR=$WORK/floor WORK=$WORK TOKEN=$TOKEN "$BUN" -e '
  const { BIN, BASELINE_BIN, FLOOR, WORK, TOKEN } = process.env;
  const cases = [
    { name: "floor version", kind: "exit", argv: [FLOOR, "version"] },
    { name: "floor serve", kind: "healthz", argv: [FLOOR, "serve"] },
  ];
  const sides = [["phrasebook", BIN, `${WORK}/existing`]];
  if (BASELINE_BIN) sides.push(["baseline", BASELINE_BIN, `${WORK}/existing-baseline`]);
  for (const [side, bin, existing] of sides) {
    cases.push(
      { name: `${side} version`, kind: "exit", argv: [bin, "version"] },
      { name: `${side} --help`, kind: "exit", argv: [bin, "--help"] },
      // A server that does not answer: connection refused on a port nothing listens on.
      { name: `${side} status`, kind: "exit", argv: [bin, "status"], env: { PHRASEBOOK_SERVER: "http://127.0.0.1:9", PHRASEBOOK_TOKEN: TOKEN } },
      { name: `${side} serve fresh`, kind: "healthz", argv: [bin, "serve"], dataDir: "fresh" },
      { name: `${side} serve existing`, kind: "healthz", argv: [bin, "serve"], dataDir: existing },
    );
  }
  await Bun.write(process.argv[1], JSON.stringify({ cases }));
' "$SPEC"

OUT="$WORK/rounds.jsonl"
"$BUN" bench/lib/startup-driver.ts "$ROUNDS" "$(cat "$SPEC")" > "$OUT"
BASELINE_NAME=${BASELINE_NAME:-} ROUNDS=$ROUNDS LOAD="$(cut -d' ' -f1-3 /proc/loadavg)" "$BUN" bench/lib/startup-summary.ts "$OUT"
