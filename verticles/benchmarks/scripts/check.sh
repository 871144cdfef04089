#!/usr/bin/env bash
# Requests/s and latency of POST /v1/check with wrk (install it with verticles/benchmarks/scripts/install-bench-tools.sh), against a fresh
# server from gateway/target/sluice.jar with deploy/examples/sluice.yaml; figures in
# docs/http-check-api.md. Usage: verticles/benchmarks/scripts/check.sh [seconds, default 30] [connections, default 64]
# Build first: mvn -B -ntp -q -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds=${1:-30}
connections=${2:-64}
port=${HTTP_PORT:-9800}
java -jar gateway/target/sluice.jar --config deploy/examples/sluice.yaml --tcp-port 0 --udp-port 0 \
  --http-port "$port" >/tmp/sluice-check-bench.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "serving Throttr" /tmp/sluice-check-bench.log && break; sleep 0.1; done
url="http://127.0.0.1:$port/v1/check"
for script in check check-keys; do
  echo "== $script.lua, $connections connections (warm-up 15 s, then $seconds s)"
  wrk -t2 -c"$connections" -d15s -s "verticles/benchmarks/scripts/$script.lua" "$url" >/dev/null
  wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "verticles/benchmarks/scripts/$script.lua" "$url"
done
