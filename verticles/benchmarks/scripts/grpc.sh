#!/usr/bin/env bash
# Envoy's ShouldRateLimit over gRPC (64 HTTP/2 streams) with a fixed window and a sliding window
# (algorithm: sliding_window) against the HTTP check API (64 connections),
# in one run of `bench grpc`, against a fresh server from gateway/target/sluice.jar; figures in
# docs/benchmarks.md. Usage: verticles/benchmarks/scripts/grpc.sh [seconds, default 15] [streams, default 64]
# Build first: mvn -q -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds=${1:-15}
streams=${2:-64}
dir=verticles/benchmarks/scripts/grpc
http_port=${HTTP_PORT:-19800}
grpc_port=${GRPC_PORT:-19801}
java -jar gateway/target/sluice.jar --config "$dir/sluice.yaml" --rls-config "$dir/ratelimit.yaml" \
  --tcp-port 0 --udp-port 0 --http-port "$http_port" --grpc-port "$grpc_port" >/tmp/sluice-grpc-bench.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do grep -q "Envoy rate limit service" /tmp/sluice-grpc-bench.log && break; sleep 0.1; done
java -jar gateway/target/sluice-bench.jar grpc --port "$grpc_port" --http-port "$http_port" --streams "$streams" \
  --domain bench --descriptor key=bench --algorithm-descriptor sliding=bench --policy bench --warmup 10 --duration "$seconds" --rounds 5
