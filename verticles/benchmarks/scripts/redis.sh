#!/usr/bin/env bash
# Throttr UPDATE against Redis INCR, in one run, rounds interleaved: each server pinned to core 0
# (taskset), its load on core 1, a fresh server per measurement.
#   sluice  sluice.jar on the loopback; sluice-bench --connections 4 --pipeline 64 --mix update over
#           10,000 keys (inserted first), 3 s of warm-up, then the measured run
#   redis   redis-server on its own port, persistence off (no RDB, no AOF); redis-benchmark -t incr
#           -P 64 -c 4 -r 10000 (10,000 keys), a warm-up run of a tenth of the requests, then the
#           measured run of REDIS_REQUESTS requests (default: a million per second asked for)
# Both are one counter change per request, 4 connections with 64 requests in flight on each.
# Prints requests/s per server and round (with the load average), and Sluice / Redis over all rounds.
# Needs: redis-server and redis-tools, installed by install-bench-tools.sh (run first here), 2 cores
# or more, and a build: mvn -B -ntp -q -DskipTests package
# Usage: verticles/benchmarks/scripts/redis.sh [rounds, default 3] [seconds, default 10]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
seconds=${2:-10}
requests=${REDIS_REQUESTS:-$((seconds * 1000000))}
tcp=${TCP_PORT:-9520}
http=${HTTP_PORT:-9592}
udp=${UDP_PORT:-9593}
redis_port=${REDIS_PORT:-9679}
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
bash verticles/benchmarks/scripts/install-bench-tools.sh
work=$(mktemp -d)
server=""
stop_server() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT

waitPort() { # $1: port
  for _ in $(seq 1 300); do
    (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on $1" >&2
  cat "$work/server.log" >&2
  return 1
}

sluice() { # prints UPDATE ops/s
  taskset -c 0 java -jar "$jar" --bind 127.0.0.1 --tcp-port "$tcp" --http-port "$http" --udp-port "$udp" \
    >"$work/server.log" 2>&1 &
  server=$!
  waitPort "$tcp"
  taskset -c 1 java -jar "$bench_jar" --port "$tcp" --connections 4 --pipeline 64 --mix update --keys 10000 \
    --duration "$seconds" --warmup 3 | awk '/ ops\/s/ { gsub(",", "", $1); printf "%.0f", $1 }'
  stop_server
}

redis() { # prints INCR requests/s
  taskset -c 0 redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no --daemonize no \
    --dir "$work" >"$work/server.log" 2>&1 &
  server=$!
  waitPort "$redis_port"
  local -a load=(redis-benchmark -p "$redis_port" -t incr -P 64 -c 4 -r 10000 --csv)
  taskset -c 1 "${load[@]}" -n "$((requests / 10))" >/dev/null
  taskset -c 1 "${load[@]}" -n "$requests" | awk -F'","' '/^"INCR/ { printf "%.0f", $2 }'
  stop_server
}

declare -A sum=([sluice]=0 [redis]=0)
for round in $(seq 1 "$rounds"); do
  for name in sluice redis; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    rate=$("$name")
    printf "round %d  %-7s %10s requests/s  (load average %s)\n" "$round" "$name" "$rate" "$load"
    sum[$name]=$((${sum[$name]} + rate))
  done
done
echo "over all rounds: Sluice UPDATE 4 x 64 / Redis INCR -P 64 -c 4 = $(awk -v a="${sum[sluice]}" -v b="${sum[redis]}" \
  'BEGIN { printf "%.2f", a / b }')"
