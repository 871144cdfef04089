#!/usr/bin/env bash
# Measures what --data-dir costs and gives (docs/benchmarks.md, "Persistence"):
#   1. UPDATE 4 x 64 on 10,000 keys without --data-dir, with it (everysec) and with --fsync always,
#      interleaved over ROUNDS rounds so that the machine's drift hits every mode alike, with the
#      server's CPU time per request (what decides throughput once the server has the cores);
#   2. with KEYS keys (default 1,000,000): the time of one snapshot and the worst shard pause (one
#      slice), the bytes per key on disk, and the time from start to /ready on restart.
# Usage: verticles/benchmarks/scripts/persistence.sh [ROUNDS=3] [KEYS=1000000, 0 skips part 2]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
keys=${2:-1000000}
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
port=${PORT:-9500}
http=$((port + 1))
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$work"' EXIT

serve() { # flags...: starts Sluice, waits until it serves
  java -jar "$jar" --tcp-port "$port" --http-port "$http" --udp-port 0 "$@" >"$work/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do grep -q "serving Throttr" "$work/server.log" && return; sleep 0.05; done
  echo "no start: $(cat "$work/server.log")"; exit 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; } # utime + stime of the server, in clock ticks
metric() { curl -s "http://127.0.0.1:$http/metrics" | awk -v m="$1" '$1 ~ "^"m"[{]" {print $2}'; }

echo "== UPDATE 4 x 64, 10,000 keys, $rounds interleaved rounds"
for round in $(seq 1 "$rounds"); do
  for mode in memory everysec always; do
    rm -rf "$work/data"
    case $mode in
      memory) serve ;;
      everysec) serve --data-dir "$work/data" ;;
      always) serve --data-dir "$work/data" --fsync always ;;
    esac
    before=$(cpu_ticks)
    ops=$(java -jar "$bench_jar" --port "$port" --mix update --connections 4 --pipeline 64 --duration 8 --warmup 0 \
      | grep -o '[0-9,]* ops/s' | head -1)
    ticks=$(( $(cpu_ticks) - before ))
    # On a machine shared with other busy processes wall-clock ops/s swings with their load; the
    # server's own CPU time per request (prefill of 10,000 keys included) does not.
    echo "round $round $mode: $ops, server CPU $(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v o="${ops//[^0-9]/}" \
      'BEGIN {printf "%.2f", t / hz * 1e6 / (o * 8 + 10000)}') µs per request"
    stop
  done
done

[ "$keys" -eq 0 ] && exit 0
echo "== $keys keys"
rm -rf "$work/data"
serve --data-dir "$work/data" --snapshot-interval 1h
# bench prefills its keys as counters with a one-hour TTL
java -jar "$bench_jar" --port "$port" --keys "$keys" --mix query --connections 4 --pipeline 64 --duration 1 --warmup 0 \
  >/dev/null
stop
log_bytes=$(du -cb "$work"/data/*.log | tail -1 | cut -f1)
echo "log after inserting: $log_bytes bytes, $(awk -v b="$log_bytes" -v n="$keys" 'BEGIN {printf "%.1f", b/n}') bytes per key"
start=$(date +%s%N)
serve --data-dir "$work/data" --snapshot-interval 2s
until curl -sf "http://127.0.0.1:$http/ready" >/dev/null; do sleep 0.02; done
echo "restart to ready: $(( ($(date +%s%N) - start) / 1000000 )) ms ($(grep -o 'loaded [0-9]* keys .* ms' "$work/server.log"))"
for _ in $(seq 1 600); do
  done_shards=$(metric sluice_persistence_last_snapshot_bytes | awk '$1 > 0' | wc -l)
  [ "$done_shards" -ge 1 ] && [ "$done_shards" -eq "$(metric sluice_persistence_last_snapshot_bytes | wc -l)" ] && break
  sleep 0.1
done
echo "snapshot duration per shard (s): $(metric sluice_persistence_last_snapshot_duration_seconds | tr '\n' ' ')"
echo "worst slice per shard (s): $(metric sluice_persistence_snapshot_worst_slice_seconds | tr '\n' ' ')"
snapshot_bytes=$(du -cb "$work"/data/*.snapshot | tail -1 | cut -f1)
echo "snapshots: $snapshot_bytes bytes, $(awk -v b="$snapshot_bytes" -v n="$keys" 'BEGIN {printf "%.1f", b/n}') bytes per key"
stop
