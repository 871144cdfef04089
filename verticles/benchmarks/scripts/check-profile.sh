#!/usr/bin/env bash
# Where the HTTP check API's CPU goes: a fresh server from JAR with deploy/examples/sluice.yaml under
# wrk (check.lua, 64 connections), recorded with JFR (method samples every 2 ms), then the share of
# samples whose stack holds each suspect of the hot path, and the top frames. Shares are of the
# server's own samples, so they stay meaningful on a loaded machine; throughput does not.
# Usage: verticles/benchmarks/scripts/check-profile.sh JAR [seconds, default 20] [out dir, default a temp dir]
#        verticles/benchmarks/scripts/check-profile.sh OUT_DIR   (the shares of an earlier run's recording again)
# As floors.sh runs the check: PIN=1 (server on core 0, wrk on core 1), LUA=floors.lua and
# CONFIG=verticles/benchmarks/scripts/floors.yaml (GET /v1/check/tb?key=kN over 10,000 keys);
# WARMUP=seconds (default 10).
set -euo pipefail
cd "$(dirname "$0")/../../.."
if [ -d "$1" ]; then
  out=$1
else
  jar=$1
  seconds=${2:-20}
  out=${3:-$(mktemp -d)}
  mkdir -p "$out"
  port=${HTTP_PORT:-9863}
  settings="$out/sampling.jfc"
  sed 's/<setting name="period" control="method-sampling-java-interval">10 ms/<setting name="period" control="method-sampling-java-interval">2 ms/' \
    "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc" >"$settings"
  flags=${SERVER_FLAGS-"--grpc-port 0"}
  # For an older build: SERVER_FLAGS="" (no gRPC port yet), CONFIG=its own tree's deploy/examples/sluice.yaml.
  server_cpu=""; wrk_cpu=""
  if [ -n "${PIN:-}" ]; then server_cpu="taskset -c 0"; wrk_cpu="taskset -c 1"; fi
  lua=verticles/benchmarks/scripts/${LUA:-check.lua}
  $server_cpu java "-XX:StartFlightRecording=settings=$settings,filename=$out/check.jfr" -jar "$jar" $flags \
    --config "${CONFIG:-deploy/examples/sluice.yaml}" --tcp-port 0 --udp-port 0 --http-port "$port" >"$out/server.log" 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 1 200); do grep -q "serving Throttr" "$out/server.log" && break; sleep 0.1; done
  url="http://127.0.0.1:$port/v1/check"
  $wrk_cpu wrk -t2 -c64 -d"${WARMUP:-10}s" -s "$lua" "$url" >/dev/null
  # The recording so far is warm-up: only samples after this instant are counted.
  date -u +%H:%M:%S >"$out/measured-from"
  $wrk_cpu wrk -t2 -c64 -d"${seconds}s" -s "$lua" "$url" | grep "Requests/sec"
  kill "$server"; wait "$server" 2>/dev/null || true
  trap - EXIT
  jfr print --events jdk.ExecutionSample --stack-depth 256 "$out/check.jfr" >"$out/samples.txt"
fi
awk -v from="$(cat "$out/measured-from")" '
  BEGIN {
    n = split("CheckDecisions;io\\.sluice\\.verticles\\.server\\.check\\.CheckDecisions\\." \
      ";LimitActivity;io\\.sluice\\.verticles\\.server\\.metrics\\.LimitActivity" \
      ";Micrometer (all);^io\\.micrometer\\." \
      ";Vert.x metrics SPI, all;^io\\.vertx\\.micrometer\\." \
      ";HTTP server series (Vert.x'"'"'s or HttpServerMeters);VertxHttpServerMetrics|VertxNetServerMetrics|metrics\\.HttpServerMeters\\." \
      ";RequestDeadline;RequestDeadline\\." \
      ";Vert.x timers (set/cancel);VertxImpl\\.(setTimer|cancelTimer|scheduleTimeout)" \
      ";String concatenation;StringConcatHelper|StringBuilder\\.append", parts, ";")
    for (i = 1; i <= n; i += 2) { names[++k] = parts[i]; patterns[k] = parts[i + 1] }
  }
  /^jdk.ExecutionSample/ { inside = 0; counted = 0; top = ""; delete hit; next }
  /startTime = / { split($3, t, "."); keep = (t[1] >= from) }
  /stackTrace = \[/ { inside = keep; if (keep) total++; next }
  inside && /^ *\]/ { inside = 0; for (c in hit) share[c]++; tops[top]++; next }
  inside {
    frame = $1
    if (top == "") top = frame
    for (c = 1; c <= k; c++) if (frame ~ patterns[c]) hit[c] = 1
  }
  END {
    printf "%d samples after warm-up\n", total
    for (c = 1; c <= k; c++) printf "%6.1f %%  %s\n", 100 * share[c] / total, names[c]
    print "top frames:"
    for (f in tops) printf "%6.1f %%  %s\n", 100 * tops[f] / total, f | "sort -rn | head -25"
  }' "$out/samples.txt"
echo "recording: $out/check.jfr"
