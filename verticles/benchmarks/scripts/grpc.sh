#!/usr/bin/env bash
# Envoy's ShouldRateLimit over gRPC (64 HTTP/2 streams) with a fixed window and a sliding window
# (algorithm: sliding_window) against the HTTP check API (64 connections),
# in one run of `bench grpc`, against a fresh server from gateway/target/sluice.jar; then the same
# ShouldRateLimit against the gRPC floor (GrpcFloor: the gRPC port's options answering a status made
# once), alone on the machine too, and the ratio of the two; figures in docs/benchmarks.md.
# Usage: verticles/benchmarks/scripts/grpc.sh [seconds, default 15] [streams, default 64]
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
  --domain bench --descriptor key=bench --algorithm-descriptor sliding=bench --policy bench --warmup 10 --duration "$seconds" --rounds 5 \
  | tee /tmp/sluice-grpc-bench.out
kill "$server"; wait "$server" 2>/dev/null || true

floor_port=${FLOOR_PORT:-19802}
floor_jar=$(ls verticles/benchmarks/floor/target/sluice-verticles-benchmarks-floor-*.jar | grep -v sources | head -1)
java -cp "gateway/target/sluice.jar:$floor_jar" io.sluice.verticles.benchmarks.floor.GrpcFloor "$floor_port" \
  >/tmp/sluice-grpc-floor.log 2>&1 &
server=$!
for _ in $(seq 1 600); do grep -q "gRPC floor serving" /tmp/sluice-grpc-floor.log && break; sleep 0.1; done
echo "the gRPC floor (GrpcFloor):"
java -jar gateway/target/sluice-bench.jar grpc --port "$floor_port" --http-port 0 --streams "$streams" \
  --warmup 10 --duration "$seconds" --rounds 5 | tee /tmp/sluice-grpc-floor.out
rate() { awk '/^grpc ShouldRateLimit/ { gsub(",", "", $5); print $5; exit }' "$1"; }
awk -v a="$(rate /tmp/sluice-grpc-bench.out)" -v b="$(rate /tmp/sluice-grpc-floor.out)" \
  'BEGIN { printf "grpc / floor: %.2f\n", a / b }'
