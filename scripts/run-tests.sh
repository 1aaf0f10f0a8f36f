#!/usr/bin/env bash
# `make test`'s runner: every test file, in two lanes at once. Files named *.slow.test.ts spend
# their time waiting on real clocks outside our control (nginx's 60 s cache of a `latest` file,
# docs/deploy.md), so they run beside the rest instead of after it; everything else runs as one
# `bun test`. Both lanes' output is printed whole, then one summary of both, in bun's own form.
# Arguments are passed to both `bun test` runs (e.g. --timeout 60000).
set -uo pipefail
cd "$(dirname "$0")/.."
BUN=${BUN:-tools/node_modules/.bin/bun}

mapfile -t slow < <(find test -name '*.slow.test.ts' | sort)
mapfile -t rest < <(find test -name '*.test.ts' ! -name '*.slow.test.ts' | sort)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

status_slow=0
if [ ${#slow[@]} -gt 0 ]; then
  "$BUN" test "$@" "${slow[@]}" >"$logs/slow.log" 2>&1 &
  slow_pid=$!
fi
"$BUN" test "$@" "${rest[@]}" 2>&1 | tee "$logs/rest.log"
status_rest=${PIPESTATUS[0]}
if [ ${#slow[@]} -gt 0 ]; then
  wait "$slow_pid"
  status_slow=$?
  echo
  echo "== slow lane: ${slow[*]}"
  cat "$logs/slow.log"
fi

count() { grep -hE "^ *[0-9]+ $1\$" "$logs"/*.log | tr -dc '0-9\n' | awk '{ n += $1 } END { print n + 0 }'; }
echo
echo "== both lanes"
echo " $(count pass) pass"
echo " $(count fail) fail"
# The failures again, last, so a reader of only the log's tail (CI) sees which tests they were.
if grep -hq '^(fail)' "$logs"/*.log; then
  echo
  echo "== failed tests"
  grep -h -B20 '^(fail)' "$logs"/*.log | grep -E '^(\(fail\)|error:|      at .*test\.ts)' | awk '!seen[$0]++' | tail -60
fi
[ "$status_rest" -eq 0 ] && [ "$status_slow" -eq 0 ]
