#!/usr/bin/env bash
# Measures Sluice's memory per counter: RSS growth of a fresh server after inserting N counters with
# 16-byte keys (bench prefill), after a full GC so that only live data and the heap's committed
# headroom count. Usage: verticles/benchmarks/scripts/memory.sh [N=1000000] [extra server flags...]
set -euo pipefail
cd "$(dirname "$0")/../../.."
keys=${1:-1000000}
shift || true
jar=gateway/target/sluice.jar
bench_jar=gateway/target/sluice-bench.jar
port=${PORT:-9400}
java -jar "$jar" --tcp-port "$port" --http-port 0 "$@" >/tmp/sluice-memory.log 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "serving Throttr" /tmp/sluice-memory.log && break; sleep 0.1; done
rss() { awk '/VmRSS/ {print $2}' /proc/$pid/status; }
jcmd $pid GC.run >/dev/null
sleep 3
before=$(rss)
java -jar "$bench_jar" --port "$port" --keys "$keys" --connections 4 --pipeline 64 --mix query --duration 1 --warmup 0 | head -1
jcmd $pid GC.run >/dev/null
sleep 3 # G1 returns freed regions to the OS in a concurrent task after the collection
after=$(rss)
heap_info=$(jcmd $pid GC.heap_info | head -3 | tr "\n" " ")
echo "keys=$keys rss_before_kb=$before rss_after_kb=$after heap: $heap_info"
awk -v b="$before" -v a="$after" -v n="$keys" 'BEGIN { printf "RSS growth: %.1f bytes per key\n", (a-b)*1024/n }'
