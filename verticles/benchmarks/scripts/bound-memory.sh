#!/usr/bin/env bash
# The memory bound under attack: a fresh server with --max-memory LIMIT takes N distinct 16-byte
# keys (bench prefill: N INSERTs of new keys, far more than fit), then after a full GC reports the
# records held, their estimate, the live heap and the RSS growth, each against the limit.
# Usage: verticles/benchmarks/scripts/bound-memory.sh [N=2000000] [LIMIT=64mb] [extra server flags...]
set -euo pipefail
cd "$(dirname "$0")/../../.."
keys=${1:-2000000}
limit=${2:-64mb}
shift 2 || shift $# || true
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
port=${PORT:-9410}
http=${HTTP_PORT:-9411}
log=/tmp/sluice-bound-memory.log
java -jar "$jar" --tcp-port "$port" --http-port "$http" --udp-port 0 --max-memory "$limit" "$@" >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "serving Throttr" "$log" && break; sleep 0.1; done
rss() { awk '/VmRSS/ {print $2}' /proc/$pid/status; }
live_heap_kb() { jcmd $pid GC.class_histogram | awk '/^Total/ {print int($3 / 1024)}'; }
jcmd $pid GC.run >/dev/null
sleep 3
before=$(rss)
heap_before=$(live_heap_kb)
java -jar "$bench_jar" --port "$port" --keys "$keys" --connections 4 --pipeline 64 --mix query --duration 1 --warmup 0 | head -1
jcmd $pid GC.run >/dev/null
sleep 3 # G1 returns freed regions to the OS in a concurrent task after the collection
after=$(rss)
heap_after=$(live_heap_kb)
metric() { curl -s "http://127.0.0.1:$http/metrics" | awk -v name="$1" 'index($0, name) == 1 {sum += $NF} END {printf "%.0f", sum}'; }
records=$(metric 'sluice_keys{')
estimate=$(metric 'sluice_record_memory_bytes{')
max=$(metric 'sluice_max_memory_bytes ')
evicted=$(metric 'sluice_evicted_keys_total{')
echo "keys sent=$keys held=$records evicted=$evicted estimate=$estimate bytes of max=$max"
echo "live heap: before=${heap_before} KiB after=${heap_after} KiB; RSS: before=${before} KiB after=${after} KiB"
awk -v e="$estimate" -v m="$max" -v hb="$heap_before" -v ha="$heap_after" -v b="$before" -v a="$after" -v n="$records" 'BEGIN {
  printf "live heap growth %.1f MiB = %.2f x the limit (%.1f bytes a record held); RSS growth %.1f MiB = %.2f x the limit\n",
    (ha-hb)/1024, (ha-hb)*1024/m, (ha-hb)*1024/n, (a-b)/1024, (a-b)*1024/m }'
