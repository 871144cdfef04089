#!/usr/bin/env bash
# TLS against plain text on the Throttr port: UPDATE at 4 connections x 64 in flight and 1 x 1
# latency, for plain TCP, TLS with the OpenSSL engine and TLS with the JDK's, interleaved over
# several rounds so that the machine's other load spreads over all three alike.
# The server is pinned to core 0 and the load tool to core 1 (taskset), so that the figure is the
# server's cost: unpinned, the load tool's own TLS took its share of the same two cores.
# A throwaway certificate is made with the openssl command in a temporary folder.
# Usage: verticles/benchmarks/scripts/tls.sh [seconds per run, default 8] [rounds, default 2].
# Build first: mvn -q -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds=${1:-8}
rounds=${2:-2}
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
tcp=${TCP_PORT:-9510}
http=${HTTP_PORT:-9590}
udp=${UDP_PORT:-9591}
certs=$(mktemp -d)
server=
stop_server() { [ -n "$server" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; server=; }; }
trap 'stop_server; rm -rf "$certs"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$certs/key.pem" -out "$certs/cert.pem" 2>/dev/null
start_server() {
  taskset -c 0 java -jar "$jar" --tcp-port "$tcp" --http-port "$http" --udp-port "$udp" "$@" >/tmp/sluice-tls-bench.log 2>&1 &
  server=$!
  for _ in $(seq 1 600); do grep -q "serving Throttr" /tmp/sluice-tls-bench.log && return; sleep 0.1; done
  echo "server did not start" >&2; cat /tmp/sluice-tls-bench.log >&2; exit 1
}
run() {
  local label=$1; shift
  local -a server_args=() client_args=()
  if [ "$label" != plain ]; then
    server_args=(--tls-cert "$certs/cert.pem" --tls-key "$certs/key.pem" --tls-engine "$label")
    client_args=(--tls-ca "$certs/cert.pem")
  fi
  start_server "${server_args[@]}"
  echo "== $label: $*"
  taskset -c 1 java -jar "$bench_jar" --port "$tcp" --duration "$seconds" --warmup 3 "${client_args[@]}" "$@" | tail -2
  stop_server
}
for round in $(seq 1 "$rounds"); do
  echo "#### round $round"
  for label in plain openssl jdk; do
    run "$label" --connections 4 --pipeline 64 --mix update
    run "$label" --connections 1 --pipeline 1 --mix update
  done
done
