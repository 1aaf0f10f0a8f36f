#!/usr/bin/env bash
# CDN throughput, latency and CPU per request against its floor: a bare Bun.serve handler
# returning a prebuilt Response clone of the same bytes, headers included (bench/lib/bare-server.ts), the most any
# Bun server can do for these bytes (docs/cdn.md "Speed"). Debian's nginx serving the same files
# from disk runs in the same rounds as the outside reference.
#
# Every server runs pinned to one core (BENCH_SERVER_CPU), wrk to another (BENCH_WRK_CPU); rounds
# interleave the servers (alternating which goes first). Each row is reported as a ratio to the
# floor measured in the same round (the table quotes medians of those per-round ratios), because
# this kind of machine drifts 12-28% between runs of the same thing. Beside it, each server's CPU
# time per request (from /proc): with the server bound to one core, throughput is the inverse of
# that cost, and it is far less disturbed by other load.
# Servers: phrasebook (PHRASEBOOK_LOG_REQUESTS=false, the request path alone), phrasebook with
# the request log on (the default; its lines go to a pipe, as under systemd), nginx (one worker,
# sendfile, open_file_cache, gzip_static, access log off, unlimited keep-alive), the floor, and the
# floor with Phrasebook's program in memory (bench/lib/loaded-floor.ts: the app opened, never
# asked), which tells the price of the program's heap (garbage collection) from that of the request path.
# Knobs: BENCH_ROUNDS (3), BENCH_DURATION seconds (5), BENCH_CONNECTIONS (64), BENCH_SCENARIOS (all
# seven rows: small-pinned small-latest small-channel large-pinned large-latest large-channel
# large-gzip; a channel's path, docs/releases.md, serves the release like latest); BASELINE_REV=<commit>
# adds that revision's executable (request log off) on its own data dir with the same bundles to
# every round (bench/lib/baseline.sh). PHRASEBOOK_BIN picks the executable (default dist/phrasebook).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${BENCH_ROUNDS:-3}
DURATION=${BENCH_DURATION:-5}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
SERVER_CPU=${BENCH_SERVER_CPU:-0}
WRK_CPU=${BENCH_WRK_CPU:-1}
BUN=${BUN:-tools/node_modules/.bin/bun}
BIN=${PHRASEBOOK_BIN:-dist/phrasebook}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# A misspelt row is refused before anything is built or started.
for name in ${BENCH_SCENARIOS:-}; do
  case $name in
    small-pinned | small-latest | small-channel | large-pinned | large-latest | large-channel | large-gzip) ;;
    *) echo "BENCH_SCENARIOS: unknown row \"$name\" (rows: small-pinned small-latest small-channel large-pinned large-latest large-channel large-gzip)" >&2; exit 2 ;;
  esac
done
if [ -n "${BENCH_SCENARIOS+set}" ] && [ -z "${BENCH_SCENARIOS// /}" ]; then
  echo "BENCH_SCENARIOS is empty (rows: small-pinned small-latest small-channel large-pinned large-latest large-channel large-gzip)" >&2
  exit 2
fi

need=()
command -v wrk >/dev/null 2>&1 || need+=(wrk)
[ -x "$NGINX" ] || need+=(nginx)
command -v taskset >/dev/null 2>&1 || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
fi
[ -x "$BIN" ] || make build >/dev/null

WORK=$(mktemp -d /tmp/phrasebook-bench-cdn.XXXXXX)
PB_PID=""
LOG_PID=""
NGINX_PID=""
BARE_PID=""
LOADED_PID=""
BASE_PID=""
cleanup() {
  # `|| true`: under set -e a wait that reports the SIGTERM would end the clean-up at the first server.
  for pid in $PB_PID $LOG_PID $NGINX_PID $BARE_PID $LOADED_PID $BASE_PID; do kill "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }; done
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { "$BUN" -e 'const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() }); console.log(s.port); s.stop(true);'; }
wait_for() {
  for _ in $(seq 1 100); do "$BUN" -e "await fetch('$1').then(() => process.exit(0), () => process.exit(1))" 2>/dev/null && return 0; sleep 0.1; done
  echo "no answer from $1" >&2
  return 1
}

PB_PORT=$(free_port)
NGINX_PORT=$(free_port)
BARE_PORT=$(free_port)
export PHRASEBOOK_ADMIN_EMAIL=bench@example.test PHRASEBOOK_ADMIN_PASSWORD=bench-password-1
PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT=$PB_PORT PHRASEBOOK_DATA_DIR=$WORK/data PHRASEBOOK_LOG_REQUESTS=false \
  taskset -c "$SERVER_CPU" "$BIN" serve >"$WORK/phrasebook.log" 2>&1 &
PB_PID=$!
wait_for "http://127.0.0.1:$PB_PORT/healthz"
SETUP=$("$BUN" bench/lib/cdn-setup.ts "http://127.0.0.1:$PB_PORT" "$WORK/data")
field() { "$BUN" -e "console.log(($SETUP).files.$1.$2)"; }

# The same executable and bytes with the request log on (the default): a copy of the data dir, so
# the paths are the same; its log lines go to a pipe that discards them, as journald would read them.
kill "$PB_PID" && wait "$PB_PID" 2>/dev/null || true
cp -r "$WORK/data" "$WORK/data-log"
cp -r "$WORK/data" "$WORK/data-loaded"
PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT=$PB_PORT PHRASEBOOK_DATA_DIR=$WORK/data PHRASEBOOK_LOG_REQUESTS=false \
  taskset -c "$SERVER_CPU" "$BIN" serve >"$WORK/phrasebook.log" 2>&1 &
PB_PID=$!
LOG_PORT=$(free_port)
PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT=$LOG_PORT PHRASEBOOK_DATA_DIR=$WORK/data-log PHRASEBOOK_LOG_REQUESTS=true \
  taskset -c "$SERVER_CPU" "$BIN" serve > >(cat >/dev/null) 2>&1 &
LOG_PID=$!
wait_for "http://127.0.0.1:$PB_PORT/healthz"
wait_for "http://127.0.0.1:$LOG_PORT/healthz"

SERVERS=(phrasebook phrasebook-log nginx bare loaded)
if [ -n "${BASELINE_REV:-}" ]; then
  # shellcheck source=bench/lib/baseline.sh
  source bench/lib/baseline.sh
  build_baseline "$WORK"
  BASE_PORT=$(free_port)
  PHRASEBOOK_HOST=127.0.0.1 PHRASEBOOK_PORT=$BASE_PORT PHRASEBOOK_DATA_DIR=$WORK/baseline-data PHRASEBOOK_LOG_REQUESTS=false \
    taskset -c "$SERVER_CPU" "$BASELINE_BIN" serve >"$WORK/baseline.log" 2>&1 &
  BASE_PID=$!
  wait_for "http://127.0.0.1:$BASE_PORT/healthz"
  BASE_SETUP=$("$BUN" bench/lib/cdn-setup.ts "http://127.0.0.1:$BASE_PORT" "$WORK/baseline-data")
  base_field() { "$BUN" -e "console.log(($BASE_SETUP).files.$1.$2)"; }
  SERVERS+=(baseline)
fi

# nginx serves byte-identical copies under the same paths (the .gz files are ours, for gzip_static).
mkdir -p "$WORK/nginx/root" "$WORK/nginx/tmp"
for code in en de; do
  for kind in pinned_path latest_path channel_path; do
    target="$WORK/nginx/root$(field "$code" "$kind")"
    mkdir -p "$(dirname "$target")"
    cp "$(field "$code" file)" "$target"
    cp "$(field "$code" file).gz" "$target.gz"
  done
done
chmod -R a+rX "$WORK"
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx/tmp/body;
  proxy_temp_path $WORK/nginx/tmp/proxy;
  fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
  scgi_temp_path $WORK/nginx/tmp/scgi;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  open_file_cache max=1000 inactive=60s;
  open_file_cache_valid 60s;
  open_file_cache_errors on;
  keepalive_requests 10000000;
  keepalive_timeout 65s;
  types { application/json json; }
  charset utf-8;
  charset_types application/json;
  gzip_static on;
  gzip_vary on;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/nginx/root;
    add_header Cache-Control "public, max-age=31536000, immutable";
    add_header Access-Control-Allow-Origin "*";
  }
}
CONF
taskset -c "$SERVER_CPU" "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" 2>"$WORK/nginx/stderr.log" &
NGINX_PID=$!
wait_for "http://127.0.0.1:$NGINX_PORT$(field en pinned_path)"

# The floor: a bare Bun.serve handler with the same bytes in memory (bench/lib/bare-server.ts),
# sending the same headers as Phrasebook for each path and encoding (it asks the server once).
BARE_SPEC=$("$BUN" -e "const f = ($SETUP).files; console.log(JSON.stringify(Object.fromEntries(Object.values(f).flatMap((x) => [[x.pinned_path, x.file], [x.latest_path, x.file], [x.channel_path, x.file]]))))")
taskset -c "$SERVER_CPU" "$BUN" bench/lib/bare-server.ts "$BARE_PORT" "$BARE_SPEC" "http://127.0.0.1:$PB_PORT" >"$WORK/bare.log" 2>&1 &
BARE_PID=$!
wait_for "http://127.0.0.1:$BARE_PORT$(field en pinned_path)"

# The same floor with the app opened beside it on its own copy of the data dir (made above), compiled the way
# `make build` compiles Phrasebook (bench/lib/loaded-floor.ts).
"$BUN" build --compile --minify-whitespace --minify-syntax bench/lib/loaded-floor.ts --outfile "$WORK/loaded-floor" >/dev/null
LOADED_PORT=$(free_port)
PHRASEBOOK_DATA_DIR=$WORK/data-loaded PHRASEBOOK_LOG_REQUESTS=false taskset -c "$SERVER_CPU" "$WORK/loaded-floor" "$LOADED_PORT" "$BARE_SPEC" "http://127.0.0.1:$PB_PORT" >"$WORK/loaded.log" 2>&1 &
LOADED_PID=$!
wait_for "http://127.0.0.1:$LOADED_PORT$(field en pinned_path)"

# Same bytes from every server before anything is measured.
"$BUN" -e "
  for (const port of [$LOG_PORT, $BARE_PORT, $LOADED_PORT]) for (const p of ['$(field en pinned_path)', '$(field de latest_path)', '$(field de channel_path)']) for (const enc of ['identity', 'gzip']) {
    const a = new Uint8Array(await (await fetch('http://127.0.0.1:$PB_PORT' + p, { headers: { 'accept-encoding': enc }, decompress: false })).arrayBuffer());
    const b = new Uint8Array(await (await fetch('http://127.0.0.1:' + port + p, { headers: { 'accept-encoding': enc }, decompress: false })).arrayBuffer());
    if (Buffer.compare(a, b) !== 0) { console.error('port ' + port + ' serves other bytes on ' + p + ' ' + enc); process.exit(1); }
  }
  const paths = ['$(field en pinned_path)', '$(field de pinned_path)', '$(field de latest_path)'];
  for (const p of paths) for (const enc of ['identity', 'gzip']) {
    const a = new Uint8Array(await (await fetch('http://127.0.0.1:$PB_PORT' + p, { headers: { 'accept-encoding': enc }, decompress: false })).arrayBuffer());
    const b = new Uint8Array(await (await fetch('http://127.0.0.1:$NGINX_PORT' + p, { headers: { 'accept-encoding': enc }, decompress: false })).arrayBuffer());
    if (Buffer.compare(a, b) !== 0) { console.error('servers differ on ' + p + ' ' + enc); process.exit(1); }
  }"
if [ -n "$BASE_PID" ]; then
  "$BUN" -e "
    const pairs = [['$(field en pinned_path)', '$(base_field en pinned_path)'], ['$(field de pinned_path)', '$(base_field de pinned_path)']];
    for (const [ours, theirs] of pairs) for (const enc of ['identity', 'gzip']) {
      const a = new Uint8Array(await (await fetch('http://127.0.0.1:$PB_PORT' + ours, { headers: { 'accept-encoding': enc }, decompress: false })).arrayBuffer());
      const b = new Uint8Array(await (await fetch('http://127.0.0.1:$BASE_PORT' + theirs, { headers: { 'accept-encoding': enc }, decompress: false })).arrayBuffer());
      if (Buffer.compare(a, b) !== 0) { console.error('the baseline serves other bytes for ' + ours + ' ' + enc); process.exit(1); }
    }"
fi

# name|path|header|the baseline's path to the same bytes
base_path() { if [ -n "$BASE_PID" ]; then base_field "$1" "$2"; fi; }
SCENARIOS=(
  "small-pinned|$(field en pinned_path)||$(base_path en pinned_path)"
  "small-latest|$(field en latest_path)||$(base_path en latest_path)"
  "small-channel|$(field en channel_path)||$(base_path en channel_path)"
  "large-pinned|$(field de pinned_path)||$(base_path de pinned_path)"
  "large-latest|$(field de latest_path)||$(base_path de latest_path)"
  "large-channel|$(field de channel_path)||$(base_path de channel_path)"
  "large-gzip|$(field de pinned_path)|Accept-Encoding: gzip|$(base_path de pinned_path)"
)
if [ -n "${BENCH_SCENARIOS:-}" ]; then
  # Only the named rows (e.g. BENCH_SCENARIOS="small-pinned large-gzip"), for more rounds of the noisy ones.
  kept=()
  for s in "${SCENARIOS[@]}"; do
    if [[ " $BENCH_SCENARIOS " == *" ${s%%|*} "* ]]; then kept+=("$s"); fi
  done
  SCENARIOS=("${kept[@]}")
fi
RESULTS="$WORK/results.tsv"
: >"$RESULTS"
CLK_TCK=$(getconf CLK_TCK)
# CPU time (user + system, clock ticks) of a process and its children: nginx's worker, our threads.
cpu_ticks() {
  local total=0 p fields
  for p in "$1" $(pgrep -P "$1" || true); do
    fields=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)
    total=$((total + fields))
  done
  echo "$total"
}
run_wrk() { # scenario server port path header round pid
  local out="$WORK/wrk.out" args=(-t1 "-c$CONNECTIONS" "-d${DURATION}s" --latency) before after requests
  [ -n "$5" ] && args+=(-H "$5")
  before=$(cpu_ticks "$7")
  taskset -c "$WRK_CPU" wrk "${args[@]}" "http://127.0.0.1:$3$4" >"$out"
  after=$(cpu_ticks "$7")
  if grep -q "Non-2xx" "$out"; then echo "$2 answered errors on $4:" >&2; cat "$out" >&2; exit 1; fi
  requests=$(awk '/requests in/ {print $1}' "$out")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$6" "$(awk '/Requests\/sec/ {print $2}' "$out")" "$(awk '$1 == "99%" {print $2}' "$out")" \
    "$(awk -v t="$((after - before))" -v hz="$CLK_TCK" -v n="$requests" 'BEGIN {printf "%.3f", t * 1e6 / hz / n}')" >>"$RESULTS"
}
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
  for s in "${SCENARIOS[@]}"; do
    IFS='|' read -r name path header basepath <<<"$s"
    order=("${SERVERS[@]}")
    if [ $((round % 2)) -eq 0 ]; then order=(); for ((i = ${#SERVERS[@]} - 1; i >= 0; i--)); do order+=("${SERVERS[$i]}"); done; fi
    for server in "${order[@]}"; do
      target=$path
      case $server in
        phrasebook) port=$PB_PORT pid=$PB_PID ;;
        phrasebook-log) port=$LOG_PORT pid=$LOG_PID ;;
        nginx) port=$NGINX_PORT pid=$NGINX_PID ;;
        bare) port=$BARE_PORT pid=$BARE_PID ;;
        loaded) port=$LOADED_PORT pid=$LOADED_PID ;;
        baseline) port=$BASE_PORT pid=$BASE_PID target=$basepath ;;
      esac
      run_wrk "$name" "$server" "$port" "$target" "$header" "$round" "$pid"
    done
  done
  echo "round $round/$ROUNDS done" >&2
done

echo "## CDN against its floor (a bare Bun.serve answering the same bytes)"
echo
echo "Command: \`${BASELINE_REV:+BASELINE_REV=$BASELINE_REV }${BENCH_SCENARIOS:+BENCH_SCENARIOS=\"$BENCH_SCENARIOS\" }BENCH_ROUNDS=$ROUNDS BENCH_DURATION=$DURATION bash bench/cdn.bench.sh\` ($(date -u '+%Y-%m-%d %H:%M'), $(nproc) cores, $(uname -m), Bun $("$BUN" --version), nginx $("$NGINX" -v 2>&1 | sed 's/.*nginx\///'), server on CPU $SERVER_CPU, wrk on CPU $WRK_CPU, load average before/after: $LOAD_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg))"
echo
"$BUN" bench/lib/cdn-summary.ts "$RESULTS" "$ROUNDS" "$DURATION" "$CONNECTIONS"
