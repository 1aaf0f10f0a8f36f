#!/usr/bin/env bash
# Head-to-head A/B of two Phrasebook executables on one CDN file: both serve the same bytes (each on
# its own data dir, set up by bench/lib/cdn-setup.ts), pinned to CPU 0, wrk on CPU 1, alternating
# rounds; prints each round and the means of req/s and server CPU µs per request (from /proc).
# Usage: bash bench/ab/cdn.sh A_EXECUTABLE B_EXECUTABLE en|de [extra wrk header]   (ROUNDS=8 DUR=3)
#   en is a ~2 KB bundle, de ~200 KB; e.g. "Accept-Encoding: gzip" as the header.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUN=$PWD/tools/node_modules/.bin/bun
A=$1; B=$2; ROUNDS=${ROUNDS:-8}; DUR=${DUR:-3}
W=$(mktemp -d)
trap 'kill $PA $PB 2>/dev/null; rm -rf $W' EXIT
export PHRASEBOOK_ADMIN_EMAIL=bench@example.test PHRASEBOOK_ADMIN_PASSWORD=bench-password-1
port() { $BUN -e 'const s=Bun.serve({port:0,hostname:"127.0.0.1",fetch:()=>new Response()});console.log(s.port);s.stop(true)'; }
PORTA=$(port); PORTB=$(port)
PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT=$PORTA PHRASEBOOK_DATA_DIR=$W/a PHRASEBOOK_LOG_REQUESTS=false taskset -c 0 $A serve >$W/a.log 2>&1 & PA=$!
PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT=$PORTB PHRASEBOOK_DATA_DIR=$W/b PHRASEBOOK_LOG_REQUESTS=false taskset -c 0 $B serve >$W/b.log 2>&1 & PB=$!
# Both must answer before the setup: a fixed pause was too short on a loaded machine.
for u in $PORTA $PORTB; do
  for _ in $(seq 1 100); do $BUN -e "await fetch('http://127.0.0.1:$u/healthz').then(() => process.exit(0), () => process.exit(1))" 2>/dev/null && break; sleep 0.2; done
done
SA=$($BUN bench/lib/cdn-setup.ts http://127.0.0.1:$PORTA $W/a); SB=$($BUN bench/lib/cdn-setup.ts http://127.0.0.1:$PORTB $W/b)
pa=$($BUN -e "console.log(($SA).files.$3.pinned_path)"); pb=$($BUN -e "console.log(($SB).files.$3.pinned_path)")
ticks() { awk '{print $14+$15}' /proc/$1/stat; }
for r in $(seq 1 $ROUNDS); do
  for side in A B; do
    if [ $side = A ]; then p=$PORTA; path=$pa; pid=$PA; else p=$PORTB; path=$pb; pid=$PB; fi
    b=$(ticks $pid); out=$(taskset -c 1 wrk -t1 -c64 -d${DUR}s ${4:+-H "$4"} http://127.0.0.1:$p$path); a=$(ticks $pid)
    n=$(awk '/requests in/{print $1}' <<<"$out"); rps=$(awk '/Requests\/sec/{print $2}' <<<"$out")
    echo "$side $rps $(awk -v t=$((a-b)) -v n=$n 'BEGIN{printf "%.2f", t*1e4/n}')"
  done
done | awk '{rps[$1]+=$2; cpu[$1]+=$3; n[$1]++; print} END {for (s in rps) printf "%s mean rps %.0f cpu us %.2f\n", s, rps[s]/n[s], cpu[s]/n[s]}'
