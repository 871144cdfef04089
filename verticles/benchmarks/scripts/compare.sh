#!/usr/bin/env bash
# Two builds side by side, interleaved (old, new, old, new), on the hot paths: UPDATE 4 x 64 and
# 1 x 1 over TCP, UDP over_limit 8 x 32, POST /v1/check with wrk. Each figure is a fresh server with
# deploy/examples/sluice.yaml and the MusicBrainz rules; 3 s warm-up, 8 s measured.
# Usage: verticles/benchmarks/scripts/compare.sh OLD.jar NEW.jar [rounds, default 2]
# Build each with: mvn -B -ntp -q -DskipTests package (then copy gateway/target/sluice.jar aside).
# The load of both servers comes from one load generator, the new build's sluice-bench.jar (beside
# NEW.jar, or the file BENCH_JAR names), so that only the servers differ; OLD.jar may be a
# sluice.jar from before the load generator became its own jar: its bench is not used.
# Only meaningful on a quiet machine: check `uptime` first.
set -uo pipefail
cd "$(dirname "$0")/../../.."
old=$1
new=$2
rounds=${3:-2}
bench_jar=${BENCH_JAR:-$(dirname "$new")/sluice-bench.jar}
[ -r "$bench_jar" ] || { echo "no load generator at $bench_jar: build NEW.jar's tree, or set BENCH_JAR" >&2; exit 1; }
log=$(mktemp)
start() {
  java -jar "$1" --config deploy/examples/sluice.yaml --rules deploy/rules/musicbrainz.yaml \
    --tcp-port 9561 --udp-port 9562 --http-port 9563 >"$log" 2>&1 &
  server=$!
  for _ in $(seq 1 200); do grep -q "serving Throttr" "$log" && return; sleep 0.1; done
  echo "server did not start:" >&2; cat "$log" >&2; exit 1
}
stop() { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }
trap stop EXIT
for round in $(seq 1 "$rounds"); do
  for build in old new; do
    jar=${!build}
    echo "### $build, round $round (load: $(cut -d' ' -f1 /proc/loadavg))"
    start "$jar"; echo "== UPDATE 4 x 64"
    java -jar "$bench_jar" --port 9561 --duration 8 --warmup 3 --connections 4 --pipeline 64 --mix update | tail -2; stop
    start "$jar"; echo "== UPDATE 1 x 1"
    java -jar "$bench_jar" --port 9561 --duration 8 --warmup 3 --connections 1 --pipeline 1 --mix update | tail -2; stop
    start "$jar"; echo "== UDP over_limit 8 x 32"
    java -jar "$bench_jar" udp --port 9562 --clients 8 --in-flight 32 --duration 8 --warmup 3 | tail -3; stop
    start "$jar"; echo "== POST /v1/check, wrk -t2 -c64"
    wrk -t2 -c64 -d3s -s verticles/benchmarks/scripts/check.lua http://127.0.0.1:9563/v1/check >/dev/null
    wrk -t2 -c64 -d8s --latency -s verticles/benchmarks/scripts/check.lua http://127.0.0.1:9563/v1/check \
      | grep -E "Requests/sec|99%"; stop
  done
done
