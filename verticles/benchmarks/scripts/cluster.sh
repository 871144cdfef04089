#!/usr/bin/env bash
# The cluster figures of docs/benchmarks.md, each against fresh processes from gateway/target/sluice.jar,
# in one run so that they compare: UPDATE 4 x 64 on a single node, on the owner of every key in cluster
# mode (a one-node cluster), and through a node that owns no key (a second node started with the
# measuring aid -Dsluice.cluster.router-only=true, so every request travels to the first); then
# UPDATE 1 x 1 latency through that non-owner.
# Usage: verticles/benchmarks/scripts/cluster.sh [seconds per run, default 8] [rounds, default 2]
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds=${1:-8}
rounds=${2:-2}
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
log=/tmp/sluice-cluster-bench
mkdir -p "$log"
pids=()
start() { # name, ready port, options...
  local name=$1 http=$2
  shift 2
  java ${NODE_JAVA_OPTS:-} -jar "$jar" --http-port "$http" --grpc-port 0 "$@" >"$log/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 900); do
    grep -q "serving Throttr" "$log/$name.log" && return
    sleep 0.1
  done
  echo "$name did not start (see $log/$name.log)" >&2; exit 1
}
stop_all() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done; pids=(); }
trap stop_all EXIT
bench() { java -jar "$bench_jar" --port "$1" --duration "$seconds" --warmup 3 "${@:2}" | tail -2; }
await_members() { # http port, members
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$1/metrics" | grep -q "^sluice_cluster_members $2" && return
    sleep 0.1
  done
  echo "cluster did not form" >&2; exit 1
}

for round in $(seq 1 "$rounds"); do
  echo "== round $round: single node, UPDATE 4 x 64"
  start single 9680 --tcp-port 9600 --udp-port 9601
  bench 9600 --connections 4 --pipeline 64 --mix update
  stop_all

  echo "== round $round: cluster of one (owner of every key), UPDATE 4 x 64"
  start owner 9680 --tcp-port 9600 --udp-port 9601 --cluster --cluster-port 5801
  bench 9600 --connections 4 --pipeline 64 --mix update

  echo "== round $round: through a node that owns no key, UPDATE 4 x 64"
  NODE_JAVA_OPTS=-Dsluice.cluster.router-only=true start router 9690 --tcp-port 9610 --udp-port 9611 \
    --cluster --cluster-port 5802 --cluster-members 127.0.0.1:5801
  await_members 9690 1
  bench 9610 --connections 4 --pipeline 64 --mix update
  echo "== round $round: through a node that owns no key, UPDATE 1 x 1"
  bench 9610 --connections 1 --pipeline 1 --mix update
  echo "   (forwarded batches: $(curl -fs http://127.0.0.1:9690/metrics | grep '^sluice_cluster_forwarded_batches_total'))"
  stop_all
done
