#!/usr/bin/env bash
# Public API benchmark (docs/public-api.md "Speed"): requests/s and p99 of GET /v1/releases on a
# project with 10,000 published releases, on a cache hit (request log off, and on as by default)
# and on cache misses (default page, a search, sort=name, every page, a new search each request),
# against the floor: a bare Bun.serve handler returning a prebuilt Response clone of the same JSON,
# after the least any server of this API must do (find the answer by path and query, compare the
# Authorization header with the token; bench/api/plain-server.ts), with the headers of our cache hit
# (asked once from the server), so both send the same bytes. A second bare handler that reads
# nothing of the request is reported beside it, for reference.
#
# Side by side in one run: the servers run at once pinned to one core, wrk to the other; rounds
# are interleaved (every scenario once per round) and each scenario's ratio is taken to the floor
# of the same round; the table quotes medians of those ratios. Goals: a hit >= 0.8x the floor, any
# miss >= 0.4x, p99 < 10 ms at 64 connections. Besides requests/s it reports the server's
# CPU time per request (from /proc), which other load on a shared machine disturbs far less than
# throughput: the CPU ratio is what the throughput ratio would be on a quiet, dedicated core.
#
# Usage: bash bench/api.bench.sh          (ROUNDS=3 DURATION=5 CONNECTIONS=64 by default;
#                                           PHRASEBOOK_BIN picks the executable, default dist/phrasebook)
#        BASELINE_REV=<commit> bash bench/api.bench.sh   adds that revision's executable, seeded by
#        its own seed script with the same releases, to every round (bench/lib/baseline.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tools/node_modules/.bin:$PWD/node_modules/.bin:$PATH"

ROUNDS="${ROUNDS:-${BENCH_ROUNDS:-3}}"
DURATION="${DURATION:-${BENCH_DURATION:-5}}"
CONNECTIONS="${CONNECTIONS:-64}"
RELEASES="${RELEASES:-10000}"
SERVER_CPU="${SERVER_CPU:-0}"
LOAD_CPU="${LOAD_CPU:-1}"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
BIN="${PHRASEBOOK_BIN:-$PWD/dist/phrasebook}"
[ -x "$BIN" ] || make build >/dev/null
BUN="$PWD/tools/node_modules/.bin/bun"

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { bun -e 'const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() }); console.log(s.port); s.stop(true);'; }

wait_ready() { # url
  for _ in $(seq 1 100); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "server at $1 did not start" >&2; exit 1
}

echo "seeding $RELEASES published releases..." >&2
mkdir -p "$WORK/data"
TOKEN="$(bun bench/api/seed.ts "$WORK/data" "$RELEASES")"
cp -r "$WORK/data" "$WORK/data-nocache"
cp -r "$WORK/data" "$WORK/data-log"

cpu_ticks() { # pid -> utime + stime in clock ticks
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}
TICKS_PER_S="$(getconf CLK_TCK)"

start_phrasebook() { # data-dir port cache-ttl [executable] [log requests]
  # With the request log on, its lines go to a pipe that discards them, as journald would read them.
  PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT="$2" PHRASEBOOK_DATA_DIR="$1" PHRASEBOOK_PUBLIC_URL="http://127.0.0.1:$2" \
    PHRASEBOOK_RATE_LIMIT=10000000 PHRASEBOOK_RATE_WINDOW=60 PHRASEBOOK_API_CACHE_TTL="$3" PHRASEBOOK_LOG_REQUESTS="${5:-false}" \
    taskset -c "$SERVER_CPU" "${4:-$BIN}" serve > >(if [ "${5:-false}" = true ]; then cat >/dev/null; else cat >"$WORK/server-$2.log"; fi) 2>&1 &
  PIDS+=($!)
  wait_ready "http://127.0.0.1:$2/healthz"
}

CACHED_PORT="$(free_port)"; start_phrasebook "$WORK/data" "$CACHED_PORT" 3600; CACHED_PID="${PIDS[-1]}"
MISS_PORT="$(free_port)"; start_phrasebook "$WORK/data-nocache" "$MISS_PORT" 0; MISS_PID="${PIDS[-1]}"
LOG_PORT="$(free_port)"; start_phrasebook "$WORK/data-log" "$LOG_PORT" 3600 "$BIN" true; LOG_PID="${PIDS[-1]}"

AUTH="Authorization: Bearer $TOKEN"
curl -fs -H "$AUTH" "http://127.0.0.1:$CACHED_PORT/v1/releases" >"$WORK/body.json"
grep -q "\"total_count\":$RELEASES," "$WORK/body.json" || { echo "unexpected answer: $(head -c 300 "$WORK/body.json")" >&2; exit 1; }
cmp -s "$WORK/body.json" <(curl -fs -H "$AUTH" "http://127.0.0.1:$LOG_PORT/v1/releases") || { echo "the server with the log on answers other bytes" >&2; exit 1; }
PLAIN_PORT="$(free_port)"
taskset -c "$SERVER_CPU" bun bench/api/plain-server.ts "$PLAIN_PORT" "$WORK/body.json" reads "$TOKEN" /v1/releases "http://127.0.0.1:$CACHED_PORT" >"$WORK/plain.log" 2>&1 &
PIDS+=($!)
PLAIN_PID=$!
BLIND_PORT="$(free_port)"
taskset -c "$SERVER_CPU" bun bench/api/plain-server.ts "$BLIND_PORT" "$WORK/body.json" blind >"$WORK/blind.log" 2>&1 &
PIDS+=($!)
BLIND_PID=$!
wait_ready "http://127.0.0.1:$BLIND_PORT/"
for _ in $(seq 1 100); do curl -fs -o /dev/null -H "$AUTH" "http://127.0.0.1:$PLAIN_PORT/v1/releases" && break; sleep 0.1; done
cmp -s "$WORK/body.json" <(curl -fs -H "$AUTH" "http://127.0.0.1:$PLAIN_PORT/v1/releases") || { echo "the floor answers other bytes" >&2; exit 1; }

# name|server pid|url|extra wrk args|token (default: ours)
api_scenarios() { # prefix cached-pid cached-port miss-pid miss-port token
  SCENARIOS+=(
    "$1hit: default page|$2|http://127.0.0.1:$3/v1/releases||$6"
    ${7:+"$1hit: default page, request log on (default)|$7|http://127.0.0.1:$8/v1/releases||$6"}
    "$1miss: default page|$4|http://127.0.0.1:$5/v1/releases||$6"
    "$1miss: search=summer|$4|http://127.0.0.1:$5/v1/releases?search=summer||$6"
    "$1miss: sort=name|$4|http://127.0.0.1:$5/v1/releases?sort=name||$6"
    "$1miss: every page of sort=name|$4|http://127.0.0.1:$5|-s bench/api/pages.lua|$6"
    "$1miss: a new search each request|$4|http://127.0.0.1:$5|-s bench/api/searches.lua|$6"
  )
}
SCENARIOS=(
  "floor: bare Bun.serve, the same JSON after a path lookup and a token compare|$PLAIN_PID|http://127.0.0.1:$PLAIN_PORT/v1/releases||"
  "(reference) bare Bun.serve that reads nothing of the request|$BLIND_PID|http://127.0.0.1:$BLIND_PORT/v1/releases||"
)
api_scenarios "" "$CACHED_PID" "$CACHED_PORT" "$MISS_PID" "$MISS_PORT" "$TOKEN" "$LOG_PID" "$LOG_PORT"
if [ -n "${BASELINE_REV:-}" ]; then
  # shellcheck source=bench/lib/baseline.sh
  source bench/lib/baseline.sh
  build_baseline "$WORK"
  mkdir -p "$WORK/baseline-data"
  BASE_TOKEN="$(cd "$BASELINE_SRC" && "$BUN" bench/api/seed.ts "$WORK/baseline-data" "$RELEASES")"
  cp -r "$WORK/baseline-data" "$WORK/baseline-data-nocache"
  BASE_CACHED_PORT="$(free_port)"; start_phrasebook "$WORK/baseline-data" "$BASE_CACHED_PORT" 3600 "$BASELINE_BIN"; BASE_CACHED_PID="${PIDS[-1]}"
  BASE_MISS_PORT="$(free_port)"; start_phrasebook "$WORK/baseline-data-nocache" "$BASE_MISS_PORT" 0 "$BASELINE_BIN"; BASE_MISS_PID="${PIDS[-1]}"
  api_scenarios "baseline " "$BASE_CACHED_PID" "$BASE_CACHED_PORT" "$BASE_MISS_PID" "$BASE_MISS_PORT" "$BASE_TOKEN"
fi

# Warm up: the index is built on first use, the JIT settles.
for s in "${SCENARIOS[@]}"; do
  IFS='|' read -r _ _ url extra token <<<"$s"
  # shellcheck disable=SC2086
  taskset -c "$LOAD_CPU" wrk -t1 -c"$CONNECTIONS" -d2s -H "Authorization: Bearer ${token:-$TOKEN}" $extra "$url" >/dev/null
done

to_ms() { # wrk latency like 1.23ms / 950.00us / 1.02s
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'
}

RESULTS="$WORK/results.tsv"
: >"$RESULTS"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
  for i in "${!SCENARIOS[@]}"; do
    IFS='|' read -r name pid url extra token <<<"${SCENARIOS[$i]}"
    before="$(cpu_ticks "$pid")"
    # shellcheck disable=SC2086
    out="$(taskset -c "$LOAD_CPU" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "Authorization: Bearer ${token:-$TOKEN}" $extra "$url")"
    after="$(cpu_ticks "$pid")"
    total="$(awk '/requests in/ { print $1 }' <<<"$out")"
    cpu_us="$(awk -v t=$((after - before)) -v hz="$TICKS_PER_S" -v n="$total" 'BEGIN { printf "%.2f", t / hz * 1e6 / n }')"
    rps="$(awk '/Requests\/sec/ { print $2 }' <<<"$out")"
    p99="$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")"
    non2xx="$(awk '/Non-2xx/ { print $NF }' <<<"$out")"
    [ -z "$non2xx" ] || { echo "$name: $non2xx non-2xx answers" >&2; exit 1; }
    printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$i" "$rps" "$p99" "$cpu_us" >>"$RESULTS"
    echo "round $round: $name: $rps req/s, p99 $p99 ms, server CPU $cpu_us us/request" >&2
  done
done

echo
echo "## Public API: GET /v1/releases, $RELEASES published releases"
echo
echo "\`${BASELINE_REV:+BASELINE_REV=$BASELINE_REV }ROUNDS=$ROUNDS DURATION=$DURATION bash bench/api.bench.sh\` (wrk -t1 -c$CONNECTIONS; servers on CPU $SERVER_CPU, wrk on CPU $LOAD_CPU; $(date -u '+%Y-%m-%d %H:%M'), $(nproc) cores, Bun $("$BUN" --version), load average before/after: $LOAD_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg))."
echo
echo "| scenario | median req/s | **ratio to floor** (median of rounds) | goal | median p99 ms (goal < 10) | server CPU µs/request | CPU ratio to floor |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for i in "${!SCENARIOS[@]}"; do
  IFS='|' read -r name _ _ _ _ <<<"${SCENARIOS[$i]}"
  awk -F'\t' -v i="$i" -v name="$name" '
    function median(a, n,   j, k, t) { for (j = 1; j <= n; j++) for (k = j + 1; k <= n; k++) if (a[k] < a[j]) { t = a[j]; a[j] = a[k]; a[k] = t }
                                       return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    $2 == 0 { base[$1] = $3; basecpu[$1] = $5 }
    $2 == i { n++; rps[n] = $3; p99[n] = $4; cpu[n] = $5; round[n] = $1 }
    END { for (j = 1; j <= n; j++) { ratio[j] = rps[j] / base[round[j]]; cpuratio[j] = basecpu[round[j]] / cpu[j] }
          goal = name ~ /(^|baseline )hit/ ? 0.8 : name ~ /(^|baseline )miss/ ? 0.4 : 0
          r = median(ratio, n); p = median(p99, n)
          verdict = goal == 0 ? "" : (r >= goal && p < 10 ? " (met)" : " (missed)")
          printf "| %s | %.0f | **%.2fx**%s | %s | %.2f | %.1f | %.2fx |\n", name, median(rps, n), r, verdict, goal == 0 ? "" : ">= " goal "x", p, median(cpu, n), median(cpuratio, n) }' "$RESULTS"
done

if [ -n "${BASELINE_REV:-}" ]; then
  echo
  echo "Ours against the baseline $(git rev-parse --short "$BASELINE_REV") in the same rounds (median of per-round ratios; above 1 is faster or cheaper):"
  echo
  echo "| scenario | req/s ours / baseline | CPU per request baseline / ours |"
  echo "|---|---:|---:|"
  for i in "${!SCENARIOS[@]}"; do
    IFS='|' read -r name _ _ _ _ <<<"${SCENARIOS[$i]}"
    for j in "${!SCENARIOS[@]}"; do
      IFS='|' read -r other _ _ _ _ <<<"${SCENARIOS[$j]}"
      [ "$other" = "baseline $name" ] || continue
      awk -F'\t' -v i="$i" -v j="$j" -v name="$name" '
        function median(a, n,   x, y, t) { for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
                                           return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
        $2 == i { ours[$1] = $3; ourcpu[$1] = $5 }
        $2 == j { theirs[$1] = $3; theircpu[$1] = $5 }
        END { for (r in ours) if (r in theirs) { n++; ratio[n] = ours[r] / theirs[r]; cpu[n] = theircpu[r] / ourcpu[r] }
              printf "| %s | %.2fx | %.2fx |\n", name, median(ratio, n), median(cpu, n) }' "$RESULTS"
    done
  done
fi
