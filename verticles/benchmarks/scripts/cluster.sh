#!/usr/bin/env bash
# The cluster figures of docs/benchmarks.md, each against fresh processes from gateway/target/sluice.jar,
# in one run so that they compare: UPDATE 4 x 64 and UPDATE 1 x 1 (its p99 is the latency goal's
# baseline) on a single node, UPDATE 4 x 64 on the owner of every key in cluster mode (a one-node
# cluster), and through a node that owns no key (a second node started with the measuring aid
# -Dsluice.cluster.router-only=true, so every request travels to the first); then UPDATE 1 x 1
# latency through that non-owner; then "routed, with backups": UPDATE 2 x 64 per owner on a 2-node
# cluster with the default --backups 1, each key sent to its owner (--route-by-owner), so each
# owner also ships its changes to the other (goal: >= 0.9 x the cluster of one).
# With NETNS_DELAY set (e.g. NETNS_DELAY=1ms, as root), the owner and the non-owner run in two
# network namespaces joined by a veth pair delaying each direction by that much (link-delay.py,
# through iptables' NFQUEUE: this kernel has no tc netem), the
# load generator beside the non-owner: the cluster rounds then measure the event bus across a
# network link (NETNS_DELAY=none: the namespaces without delay). The single-node rounds run in the
# non-owner's namespace.
# Usage: [NETNS_DELAY=1ms] verticles/benchmarks/scripts/cluster.sh [seconds per run, default 8] [rounds, default 2]
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds=${1:-8}
rounds=${2:-2}
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
log=/tmp/sluice-cluster-bench
mkdir -p "$log"
pids=() holders=()
# Where each part runs: the owner's and the non-owner's namespace (none without NETNS_DELAY).
in_owner=() in_router=() owner_host=127.0.0.1 router_host=127.0.0.1
stop_all() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done; pids=(); }
ns_down() { ip netns del sluice-bench-owner 2>/dev/null || true; ip netns del sluice-bench-router 2>/dev/null || true; }
# The delays' holders last the whole run (stop_all ends each round's nodes); ns_down removes the rules.
trap 'stop_all; [ -z "${NETNS_DELAY:-}" ] || ns_down; for pid in "${holders[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
if [ -n "${NETNS_DELAY:-}" ]; then
  case "$NETNS_DELAY" in
    none) ;;
    *us) delay_us=${NETNS_DELAY%us} ;;
    *ms) delay_us=$(( ${NETNS_DELAY%ms} * 1000 )) ;;
    *) echo "NETNS_DELAY: none, or a whole number of ms or us (1ms, 500us)" >&2; exit 2 ;;
  esac
  ns_down
  ip netns add sluice-bench-owner
  ip netns add sluice-bench-router
  ip link add sluice-bench-o type veth peer name sluice-bench-r
  ip link set sluice-bench-o netns sluice-bench-owner
  ip link set sluice-bench-r netns sluice-bench-router
  owner_host=10.213.7.1 router_host=10.213.7.2
  for side in owner:o:$owner_host router:r:$router_host; do
    IFS=: read -r ns dev address <<<"$side"
    ip -n "sluice-bench-$ns" addr add "$address/24" dev "sluice-bench-$dev"
    ip -n "sluice-bench-$ns" link set lo up
    ip -n "sluice-bench-$ns" link set "sluice-bench-$dev" up
    if [ "$NETNS_DELAY" != none ]; then
      # No tc netem on every kernel (none on this project's machines): link-delay.py holds each
      # packet the namespace sends for the delay, through iptables' NFQUEUE.
      ip netns exec "sluice-bench-$ns" python3 verticles/benchmarks/scripts/link-delay.py --queue 7 \
          --delay-us "$delay_us" >"$log/delay-$ns.log" 2>&1 &
      holders+=($!)
      for _ in $(seq 1 100); do grep -q '^ready$' "$log/delay-$ns.log" && break; sleep 0.1; done
      grep -q '^ready$' "$log/delay-$ns.log" || { echo "link-delay.py did not start:" >&2; cat "$log/delay-$ns.log" >&2; exit 1; }
      ip netns exec "sluice-bench-$ns" iptables -A OUTPUT -o "sluice-bench-$dev" -j NFQUEUE --queue-num 7
    fi
  done
  in_owner=(ip netns exec sluice-bench-owner)
  in_router=(ip netns exec sluice-bench-router)
  echo "== owner and non-owner in network namespaces, $NETNS_DELAY each way"
fi
start() { # where (owner, router), name, ready port, options...
  local where=$1 name=$2 http=$3
  shift 3
  local in=("${in_owner[@]}")
  [ "$where" = router ] && in=("${in_router[@]}")
  "${in[@]}" java ${NODE_JAVA_OPTS:-} -jar "$jar" --http-port "$http" --grpc-port 0 "$@" >"$log/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 900); do
    grep -q "serving Throttr" "$log/$name.log" && return
    sleep 0.1
  done
  echo "$name did not start (see $log/$name.log)" >&2; exit 1
}
bench() { "${in_router[@]}" java -jar "$bench_jar" --port "$1" --duration "$seconds" --warmup 3 "${@:2}" | tail -2; }
metrics() { "${in_router[@]}" curl -fs "http://127.0.0.1:$1/metrics"; }
await_members() { # http port, members
  for _ in $(seq 1 600); do
    metrics "$1" | grep -q "^sluice_cluster_members $2" && return
    sleep 0.1
  done
  echo "cluster did not form" >&2; exit 1
}
await_ready() { # http port: in the table and serving every partition it owns
  for _ in $(seq 1 600); do
    "${in_router[@]}" curl -fs "http://127.0.0.1:$1/ready" >/dev/null && return
    sleep 0.1
  done
  echo "node on $1 not ready" >&2; exit 1
}

for round in $(seq 1 "$rounds"); do
  echo "== round $round: single node, UPDATE 4 x 64"
  start router single 9690 --tcp-port 9610 --udp-port 9611
  bench 9610 --connections 4 --pipeline 64 --mix update
  echo "== round $round: single node, UPDATE 1 x 1"
  bench 9610 --connections 1 --pipeline 1 --mix update
  stop_all

  echo "== round $round: cluster of one (owner of every key), UPDATE 4 x 64"
  start owner owner 9680 --tcp-port 9600 --udp-port 9601 --cluster --cluster-port 5801 --cluster-host "$owner_host"
  if [ -z "${NETNS_DELAY:-}" ]; then
    bench 9600 --connections 4 --pipeline 64 --mix update
  else
    echo "   (not measured across namespaces: the load generator runs beside the non-owner)"
  fi

  echo "== round $round: through a node that owns no key, UPDATE 4 x 64"
  NODE_JAVA_OPTS=-Dsluice.cluster.router-only=true start router router 9690 --tcp-port 9610 --udp-port 9611 \
    --cluster --cluster-port 5802 --cluster-host "$router_host" --cluster-members "$owner_host:5801"
  await_members 9690 1
  bench 9610 --connections 4 --pipeline 64 --mix update
  echo "== round $round: through a node that owns no key, UPDATE 1 x 1"
  bench 9610 --connections 1 --pipeline 1 --mix update
  echo "   (forwarded messages: $(metrics 9690 | grep '^sluice_cluster_forwarded_messages_total'))"
  echo "   (forwarded batches: $(metrics 9690 | grep '^sluice_cluster_forwarded_batches_total'))"
  echo "   (forwarded key requests: $(metrics 9690 | grep '^sluice_cluster_forwarded_key_requests_total'))"
  stop_all

  echo "== round $round: 2-node cluster, routed, with backups (--backups 1), UPDATE 2 x 64 per owner"
  if [ -z "${NETNS_DELAY:-}" ]; then
    start owner owner 9680 --tcp-port 9600 --udp-port 9601 --cluster --cluster-port 5801 --backups 1
    start owner second 9690 --tcp-port 9610 --udp-port 9611 --cluster --cluster-port 5802 --backups 1 \
      --cluster-members 127.0.0.1:5801
    await_members 9680 2
    await_ready 9680
    await_ready 9690
    java -jar "$bench_jar" --route-by-owner --host 127.0.0.1 --http-port 9680 --connections 2 --pipeline 64 \
      --mix update --duration "$seconds" --warmup 3 | tail -2
    for p in 9680 9690; do
      echo "   ($p: $(metrics $p | grep -E '^sluice_cluster_replication_(held_total|in_flight|lag_seconds\{quantile="0.99"\})' | tr '\n' ' '))"
    done
  else
    echo "   (not measured across namespaces: both owners and the load generator would share one)"
  fi
  stop_all
done
