#!/usr/bin/env bash
# Starts a cluster of Sluice nodes on loopback (three by default), each with its own ports:
#   node i: Throttr TCP 9000+10i, UDP 9001+10i, HTTP 8080+10i, gRPC 8081+10i, Hazelcast member 5701+i
# and waits until every node answers /ready. Logs and pids go to ${SLUICE_CLUSTER_DIR:-/tmp/sluice-cluster}.
# Nodes start one at a time. If a node exits or is not ready within 60 s, every node started is
# stopped and the script exits 1.
#
#   deploy/cluster/start-local.sh [nodes] [extra options for every node...]
#   deploy/cluster/start-local.sh stop        # SIGTERM to every node: each hands its partitions over
#
# JAVA_OPTS is passed to every node's JVM; SLUICE_JAR overrides gateway/target/sluice.jar (lib/sluice.jar
# in the distribution); SLUICE_PORT_OFFSET (default 0) is added to every port above, to run beside
# other listeners.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# The build's jar in the repository; lib/sluice.jar where this script came with the distribution.
jar="$here/../../gateway/target/sluice.jar"
if [[ -e "$here/../../lib/sluice.jar" ]]; then
  jar="$here/../../lib/sluice.jar"
fi
jar="${SLUICE_JAR:-$jar}"
dir="${SLUICE_CLUSTER_DIR:-/tmp/sluice-cluster}"
offset="${SLUICE_PORT_OFFSET:-0}"
mkdir -p "$dir"

stop_nodes() {
  for pidfile in "$dir"/node-*.pid; do
    [[ -e "$pidfile" ]] || continue
    pid="$(cat "$pidfile")"
    kill -TERM "$pid" 2>/dev/null || true
    # A graceful leave waits for the handoffs: give it their timeout and some.
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$pidfile"
  done
}

if [[ "${1:-}" == "stop" ]]; then
  stop_nodes
  echo "stopped"
  exit 0
fi

nodes="${1:-3}"
shift || true
[[ -f "$jar" ]] || { echo "no $jar: build it first (mvn -B -ntp -q -DskipTests package)" >&2; exit 1; }

# Stops what was started, so that a failed start leaves no node behind.
give_up() {
  echo "$1; see $dir/node-$2.log:" >&2
  tail -n 5 "$dir/node-$2.log" >&2 || true
  stop_nodes
  echo "every node stopped" >&2
  exit 1
}

# One node at a time, each once the one before is ready: a node then joins a cluster that serves,
# and a slow machine starting every JVM at once cannot push a join past Hazelcast's join timeout.
for i in $(seq 0 $((nodes - 1))); do
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} -jar "$jar" --cluster --cluster-port $((offset + 5701 + i)) \
    --cluster-members 127.0.0.1:$((offset + 5701)) \
    --tcp-port $((offset + 9000 + 10 * i)) --udp-port $((offset + 9001 + 10 * i)) \
    --http-port $((offset + 8080 + 10 * i)) --grpc-port $((offset + 8081 + 10 * i)) "$@" \
    > "$dir/node-$i.log" 2>&1 &
  echo $! > "$dir/node-$i.pid"
  port=$((offset + 8080 + 10 * i))
  for attempt in $(seq 1 600); do
    if curl -fs "http://127.0.0.1:$port/ready" > /dev/null 2>&1; then
      echo "node $i ready: Throttr 127.0.0.1:$((offset + 9000 + 10 * i)), HTTP http://127.0.0.1:$port/ (log $dir/node-$i.log)"
      break
    fi
    kill -0 "$(cat "$dir/node-$i.pid")" 2>/dev/null || give_up "node $i exited" "$i"
    [[ $attempt == 600 ]] && give_up "node $i not ready after 60 s" "$i"
    sleep 0.1
  done
done
