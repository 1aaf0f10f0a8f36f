#!/usr/bin/env bash
# Head-to-head A/B of two Phrasebook executables on GET /v1/releases cache hits: 10,000 releases,
# each data dir seeded by its own tree's bench/api/seed.ts, pinned to CPU 0, wrk on CPU 1,
# alternating rounds; prints the means of req/s and server CPU µs per request (from /proc).
# Usage: bash bench/ab/api.sh A_EXECUTABLE A_TREE B_EXECUTABLE B_TREE   (ROUNDS=6 DUR=3 URLPATH=/v1/releases)
set -euo pipefail
BUN=$(cd "$(dirname "$0")/../.." && pwd)/tools/node_modules/.bin/bun
A=$1; ASRC=$2; B=$3; BSRC=$4; ROUNDS=${ROUNDS:-6}; DUR=${DUR:-3}; URLPATH=${URLPATH:-/v1/releases}
W=$(mktemp -d)
trap 'kill $PA $PB 2>/dev/null; rm -rf $W' EXIT
port() { $BUN -e 'const s=Bun.serve({port:0,hostname:"127.0.0.1",fetch:()=>new Response()});console.log(s.port);s.stop(true)'; }
TA=$(cd $ASRC && $BUN bench/api/seed.ts $W/a 10000); TB=$(cd $BSRC && $BUN bench/api/seed.ts $W/b 10000)
PORTA=$(port); PORTB=$(port)
start() { PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT=$2 PHRASEBOOK_DATA_DIR=$3 PHRASEBOOK_RATE_LIMIT=10000000 PHRASEBOOK_API_CACHE_TTL=3600 PHRASEBOOK_LOG_REQUESTS=false taskset -c 0 $1 serve >$3.log 2>&1 & }
start $A $PORTA $W/a; PA=$!; start $B $PORTB $W/b; PB=$!
sleep 2
ticks() { awk '{print $14+$15}' /proc/$1/stat; }
taskset -c 1 wrk -t1 -c64 -d2s -H "Authorization: Bearer $TA" http://127.0.0.1:$PORTA$URLPATH >/dev/null
taskset -c 1 wrk -t1 -c64 -d2s -H "Authorization: Bearer $TB" http://127.0.0.1:$PORTB$URLPATH >/dev/null
for r in $(seq 1 $ROUNDS); do
  for side in A B; do
    if [ $side = A ]; then p=$PORTA; t=$TA; pid=$PA; else p=$PORTB; t=$TB; pid=$PB; fi
    b=$(ticks $pid); out=$(taskset -c 1 wrk -t1 -c64 -d${DUR}s -H "Authorization: Bearer $t" http://127.0.0.1:$p$URLPATH); a=$(ticks $pid)
    n=$(awk '/requests in/{print $1}' <<<"$out"); rps=$(awk '/Requests\/sec/{print $2}' <<<"$out")
    echo "$side $rps $(awk -v t=$((a-b)) -v n=$n 'BEGIN{printf "%.2f", t*1e4/n}')"
  done
done | awk '{rps[$1]+=$2; cpu[$1]+=$3; n[$1]++} END {for (s in rps) printf "%s mean rps %.0f cpu us %.2f\n", s, rps[s]/n[s], cpu[s]/n[s]}'
