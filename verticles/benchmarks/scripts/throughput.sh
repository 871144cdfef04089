#!/usr/bin/env bash
# Runs the figures of docs/benchmarks.md against a fresh server started from gateway/target/sluice.jar:
# UPDATE, QUERY and INSERT at 4 connections x 64 in flight, 1 x 1 latency, and the WebSocket fan-out.
# Usage: verticles/benchmarks/scripts/throughput.sh [seconds per run, default 10]. Build first: mvn -B -ntp -q -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds=${1:-10}
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
tcp=${TCP_PORT:-9500}
http=${HTTP_PORT:-9580}
start_server() {
  java -jar "$jar" --tcp-port "$tcp" --http-port "$http" >/tmp/sluice-bench.log 2>&1 &
  server=$!
  for _ in $(seq 1 100); do grep -q "serving Throttr" /tmp/sluice-bench.log && return; sleep 0.1; done
  echo "server did not start" >&2; exit 1
}
stop_server() { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }
trap stop_server EXIT
bench() { java -jar "$bench_jar" --port "$tcp" --duration "$seconds" --warmup 5 "$@" | tail -3; }

for mix in update query insert; do
  start_server
  echo "== $mix, 4 connections x 64 in flight"
  bench --connections 4 --pipeline 64 --mix "$mix"
  stop_server
done
start_server
echo "== update, 1 connection x 1 in flight"
bench --connections 1 --pipeline 1 --mix update
stop_server
start_server
echo "== fan-out: 1 TCP publisher, 1000 WebSocket (JSON) subscribers, 8 publishes in flight"
java -jar "$bench_jar" fanout --port "$tcp" --http-port "$http" --subscribers 1000 --in-flight 8 --duration "$seconds" --warmup 5 | tail -2
stop_server
start_server
echo "== fan-out latency at 50 publishes/s (50,000 deliveries/s), fixed schedule"
java -jar "$bench_jar" fanout --port "$tcp" --http-port "$http" --subscribers 1000 --rate 50 --duration "$seconds" --warmup 5 | tail -2
