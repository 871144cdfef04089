#!/usr/bin/env bash
# Two builds on POST /v1/check, interleaved (old, new, old, new, ...): requests/s with wrk (check.lua,
# 64 connections; 10 s warm-up, 8 s measured, a fresh server each time) and the event loops' CPU time
# per request (from /proc: the JIT's and GC's threads left out), which moves less than requests/s on
# a machine others load. Prints the load average of each run.
# Usage: verticles/benchmarks/scripts/check-compare.sh OLD.jar NEW.jar [rounds, default 3]
# An older build may need OLD_FLAGS="" (no gRPC port yet) and CONFIG=its own tree's example config.
set -uo pipefail
cd "$(dirname "$0")/../../.."
old=$1
new=$2
rounds=${3:-3}
config=${CONFIG:-deploy/examples/sluice.yaml}
port=${HTTP_PORT:-9881}
log=$(mktemp)
ticks=$(getconf CLK_TCK)
url="http://127.0.0.1:$port/v1/check"
loopTicks() {
  local total=0
  for task in /proc/"$1"/task/*; do
    if grep -q '^vert.x-eventloo' "$task/comm" 2>/dev/null; then
      total=$((total + $(awk '{print $14 + $15}' "$task/stat")))
    fi
  done
  echo "$total"
}
for round in $(seq 1 "$rounds"); do
  for build in old new; do
    flags_var=${build^^}_FLAGS
    flags=${!flags_var-"--grpc-port 0"}
    java -jar "${!build}" $flags --config "$config" --tcp-port 0 --udp-port 0 \
      --http-port "$port" >"$log" 2>&1 &
    server=$!
    for _ in $(seq 1 200); do grep -q "serving Throttr" "$log" && break; sleep 0.1; done
    wrk -t2 -c64 -d10s -s verticles/benchmarks/scripts/check.lua "$url" >/dev/null
    load=$(cut -d' ' -f1 /proc/loadavg)
    before=$(loopTicks "$server")
    out=$(wrk -t2 -c64 -d8s -s verticles/benchmarks/scripts/check.lua "$url")
    after=$(loopTicks "$server")
    kill "$server"; wait "$server" 2>/dev/null
    awk -v round="$round" -v build="$build" -v load="$load" -v ticks=$((after - before)) -v hz="$ticks" '
      /requests in/ { requests = $1 } /Requests\/sec/ { rate = $2 }
      END { printf "round %d %-3s load %5s  %9.0f requests/s  %6.1f µs event-loop CPU per request\n",
            round, build, load, rate, ticks / hz * 1e6 / requests }' <<<"$out"
  done
done
rm -f "$log"
