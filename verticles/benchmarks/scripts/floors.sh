#!/usr/bin/env bash
# The HTTP check API against its floors, in one run, rounds interleaved: each server pinned to core 0
# (taskset), wrk on core 1, 64 connections, 10,000 keys (floors.lua), a fresh server per measurement,
# a warm-up (30 s, WARMUP=…), then the measured run. The servers:
#   floor       a do-nothing server on Sluice's own HTTP stack (HttpFloor: the HTTP port's options, a
#               check answer's status, fields and body made once)
#   nginx-200   nginx `return 200` with the same body
#   nginx-limit nginx limit_req_zone $arg_key rate=5r/s, limit_req burst=5 nodelay (429 past it)
#   check-get   Sluice GET /v1/check/tb?key=kN (token bucket 5/s, burst 5: floors.yaml)
#   check-post  Sluice POST /v1/check {"policy":"tb","key":"kN"}
# Prints requests/s per server and round, the ratios the issue tracks, and the load average.
# Needs: wrk (install-bench-tools.sh), nginx (deploy/install-build-tools.sh), 2 cores or more, and a
# build: mvn -B -ntp -q -DskipTests package
# Usage: verticles/benchmarks/scripts/floors.sh [rounds, default 3] [seconds, default 10]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
seconds=${2:-10}
# 30 s: pinned to one core, the JIT compiles on the core that serves, and the check API climbs for
# about 30 s (15k, 37k, 46k, 48k requests/s in four 10 s runs one after the other); the small
# servers are warm sooner, and get the same warm-up.
warmup=${WARMUP:-30}
connections=${CONNECTIONS:-64}
port=${FLOOR_PORT:-9890}
scripts=verticles/benchmarks/scripts
nginx=$(command -v nginx || echo /usr/sbin/nginx)
floor_jar=$(ls verticles/benchmarks/floor/target/sluice-verticles-benchmarks-floor-*.jar | grep -v sources | head -1)
work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
body='{"allowed":true,"limit":5,"remaining":4,"reset":0,"retry_after":0}'

nginxConf() { # $1: limit or plain
  local limit_zone="" limit=""
  if [ "$1" = limit ]; then
    limit_zone="limit_req_zone \$arg_key zone=keys:10m rate=5r/s;"
    limit="limit_req zone=keys burst=5 nodelay; limit_req_status 429;"
  fi
  cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/error.log error;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  $limit_zone
  server {
    listen 127.0.0.1:$port reuseport;
    location / { $limit default_type application/json; return 200 '$body'; }
  }
}
CONF
}

waitPort() {
  for _ in $(seq 1 300); do
    (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on $port" >&2
  return 1
}

start() { # $1: server name
  case "$1" in
    floor)
      taskset -c 0 java -cp "gateway/target/sluice.jar:$floor_jar" io.sluice.verticles.benchmarks.floor.HttpFloor "$port" \
        >"$work/server.log" 2>&1 &
      ;;
    nginx-200|nginx-limit)
      nginxConf "$([ "$1" = nginx-limit ] && echo limit || echo plain)"
      taskset -c 0 "$nginx" -c "$work/nginx.conf" >"$work/server.log" 2>&1 &
      ;;
    check-get|check-post)
      taskset -c 0 java -jar gateway/target/sluice.jar --config "$scripts/floors.yaml" --bind 127.0.0.1 \
        --http-port "$port" --tcp-port 0 --udp-port 0 >"$work/server.log" 2>&1 &
      ;;
  esac
  server=$!
  waitPort
}

run() { # $1: server name; prints requests/s
  local post=0 path=/v1/check/tb
  [ "$1" = check-post ] && post=1
  FLOOR_PATH=$path FLOOR_POST=$post taskset -c 1 wrk -t1 -c"$connections" -d"${warmup}s" -s "$scripts/floors.lua" \
    "http://127.0.0.1:$port" >/dev/null
  FLOOR_PATH=$path FLOOR_POST=$post taskset -c 1 wrk -t1 -c"$connections" -d"${seconds}s" -s "$scripts/floors.lua" \
    "http://127.0.0.1:$port" | awk '/Requests\/sec/ { printf "%.0f", $2 }'
}

names=(floor nginx-200 nginx-limit check-get check-post)
declare -A sum
for name in "${names[@]}"; do sum[$name]=0; done
for round in $(seq 1 "$rounds"); do
  for name in "${names[@]}"; do
    start "$name"
    load=$(cut -d' ' -f1 /proc/loadavg)
    rate=$(run "$name")
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
    printf "round %d  %-12s %9s requests/s  (load average %s)\n" "$round" "$name" "$rate" "$load"
    sum[$name]=$((${sum[$name]} + rate))
  done
done
ratio() { awk -v a="${sum[$1]}" -v b="${sum[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
echo "ratios over all rounds:"
echo "  check-get  / nginx-limit  $(ratio check-get nginx-limit)"
echo "  check-get  / floor        $(ratio check-get floor)"
echo "  check-post / floor        $(ratio check-post floor)"
echo "  floor      / nginx-200    $(ratio floor nginx-200)"
