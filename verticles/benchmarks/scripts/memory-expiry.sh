#!/usr/bin/env bash
# Memory per key of the packaged server, started by bin/sluice with conf/jvm.options: RSS of an idle
# server, after filling N counters (16-byte keys, TTL T s), and after they expired and 60 s more
# passed (counted from the end of the fill, when the last key was written), first as is (what the
# JVM gave back by itself) and then after a full GC.
# Usage: verticles/benchmarks/scripts/memory-expiry.sh [N=1000000] [TTL=20]
# JVM_OPTIONS=/path/file replaces conf/jvm.options (an empty file: the JVM's own defaults);
# ARCHIVE=/path/sluice-VERSION.tar.gz replaces the one the build made.
set -euo pipefail
cd "$(dirname "$0")/../../.."
keys=${1:-1000000}
ttl=${2:-20}
archive=${ARCHIVE:-$(ls gateway/target/sluice-*.tar.gz)}
work=$(mktemp -d)
tar xzf "$archive" -C "$work"
home=$(ls -d "$work"/sluice-*)
port=${PORT:-9410}
log=$work/server.log
SLUICE_JVM_OPTIONS=${JVM_OPTIONS:-$home/conf/jvm.options} "$home/bin/sluice" --tcp-port "$port" --http-port 0 --udp-port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do grep -q "serving Throttr" "$log" && break; sleep 0.1; done
rss() { awk '/VmRSS/ {print $2}' /proc/$pid/status; }
full_gc() { jcmd $pid GC.run >/dev/null; sleep 3; } # G1 uncommits freed regions in a concurrent task after the GC
per_key() { awk -v b="$1" -v a="$2" -v n="$keys" 'BEGIN { printf "%.1f", (a-b)*1024/n }'; }
full_gc
idle=$(rss)
"$home/bin/sluice" bench --port "$port" --keys "$keys" --ttl "$ttl" --connections 4 --pipeline 64 --mix query --duration 1 --warmup 0 | head -1
filled=$(rss)
full_gc
filled_gc=$(rss)
filled_at=$(date +%s)
sleep $((ttl + 60 - ($(date +%s) - filled_at)))
expired=$(rss)
full_gc
expired_gc=$(rss)
echo "jvm options: $(grep -v '^#' "${JVM_OPTIONS:-$home/conf/jvm.options}" | grep . | tr '\n' ' ')"
echo "keys=$keys ttl=${ttl}s RSS kB: idle $idle, filled $filled, filled+GC $filled_gc, expired+60s $expired, expired+60s+GC $expired_gc"
echo "per key over idle: filled $(per_key "$idle" "$filled") B, filled+GC $(per_key "$idle" "$filled_gc") B, expired+60s $(per_key "$idle" "$expired") B, expired+60s+GC $(per_key "$idle" "$expired_gc") B"
