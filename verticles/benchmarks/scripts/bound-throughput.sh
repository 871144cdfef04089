#!/usr/bin/env bash
# The cost of the memory bound: UPDATE and INSERT at 4 connections x 64 in flight against a fresh
# server without limits and one with --max-keys 10000 (bench prefills 10,000 keys, so the bound is
# reached: every INSERT of a new key evicts one), interleaved so both see the same machine.
# Besides ops/s, each run reports the server's CPU time per request (user + system, from /proc, over
# the whole run: the 10,000 prefill INSERTs and the measured requests, no warm-up), which holds
# still when other processes share the cores and ops/s does not.
# Usage: verticles/benchmarks/scripts/bound-throughput.sh [rounds=3] [seconds per run=8]. Build first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
seconds=${2:-8}
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
tcp=${TCP_PORT:-9510}
http=${HTTP_PORT:-9590}
server=
start_server() {
  java -jar "$jar" --tcp-port "$tcp" --http-port "$http" --udp-port 0 "$@" >/tmp/sluice-bound-bench.log 2>&1 &
  server=$!
  for _ in $(seq 1 100); do grep -q "serving Throttr" /tmp/sluice-bound-bench.log && return; sleep 0.1; done
  echo "server did not start" >&2; exit 1
}
stop_server() { [ -n "$server" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }; server=; }
trap stop_server EXIT
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
throughput() {
  local before line replies after
  before=$(cpu_ticks)
  line=$(java -jar "$bench_jar" --port "$tcp" --duration "$seconds" --warmup 0 --keys 10000 --connections 4 --pipeline 64 --mix "$1" | grep 'ops/s' | head -1)
  after=$(cpu_ticks)
  replies=$(echo "$line" | sed -E 's/.*\(([0-9,]+) replies.*/\1/' | tr -d ,)
  awk -v l="$line" -v t="$((after - before))" -v hz="$(getconf CLK_TCK)" -v n="$replies" \
    'BEGIN { printf "%s  server CPU %.2f us/request\n", l, t * 1e6 / hz / (n + 10000) }'
}

for round in $(seq 1 "$rounds"); do
  for mix in update insert; do
    for limits in "" "--max-keys 10000"; do
      # shellcheck disable=SC2086
      start_server $limits
      echo "round $round  $mix  ${limits:-unbounded}: $(throughput "$mix")"
      stop_server
    done
  done
done
