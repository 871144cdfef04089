#!/usr/bin/env bash
# Resource bounds under attack (docs/security.md): each attack against a fresh packaged server
# (bin/sluice with conf/jvm.options, the MusicBrainz UDP rules, --max-memory MAX_MEMORY, every other
# option at its default). Prints the server's RSS idle (after a full GC), during the attack, during
# it after a full GC, and once the attacker let go (after a full GC), then whether fresh Throttr,
# HTTP and UDP clients were served during and after it (`bench attack` checks them).
# Usage: verticles/benchmarks/scripts/attacks.sh [ATTACK...]
#   ATTACK: subscribe udp-keys pipeline connections churn ws-frame http-headers (default: all)
# MAX_MEMORY=64mb; ARCHIVE=/path/sluice-VERSION.tar.gz replaces the one the build made;
# TCP_PORT, HTTP_PORT, UDP_PORT (9420, 9421, 9422).
set -euo pipefail
cd "$(dirname "$0")/../../.."
archive=${ARCHIVE:-$(ls gateway/target/sluice-*.tar.gz)}
rules=$PWD/deploy/rules/musicbrainz.yaml
work=$(mktemp -d)
tar xzf "$archive" -C "$work"
home=$(ls -d "$work"/sluice-*)
tcp=${TCP_PORT:-9420}
http=${HTTP_PORT:-9421}
udp=${UDP_PORT:-9422}
max_memory=${MAX_MEMORY:-64mb}
attacks=("$@")
[ ${#attacks[@]} -gt 0 ] || attacks=(subscribe udp-keys pipeline connections churn ws-frame http-headers)
pid=
stop_server() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
full_gc() { jcmd "$pid" GC.run >/dev/null; sleep 3; } # G1 uncommits freed regions in a concurrent task after the GC
metric() { curl -s "http://127.0.0.1:$http/metrics" | awk -v name="$1" 'index($0, name) == 1 {sum += $NF} END {printf "%.0f", sum}'; }
summary=()
echo "load before: $(uptime)"
for attack in "${attacks[@]}"; do
  log=$work/$attack.log
  "$home/bin/sluice" --tcp-port "$tcp" --http-port "$http" --udp-port "$udp" --grpc-port 0 \
    --rules "$rules" --max-memory "$max_memory" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do grep -q "serving Throttr" "$log" && break; sleep 0.1; done
  full_gc
  idle=$(rss)
  echo "== $attack"
  # The attacker holds what it opened until its input ends: the RSS is read while it holds.
  coproc ATTACKER { "$home/bin/sluice" bench attack "$attack" --tcp-port "$tcp" --http-port "$http" --udp-port "$udp" --hold yes 2>&1; }
  attacker_pid=$ATTACKER_PID
  to_attacker=${ATTACKER[1]}
  exec {from_attacker}<&"${ATTACKER[0]}" # a copy: bash closes the coprocess's own descriptors when it ends
  while IFS= read -r line <&"$from_attacker"; do
    echo "   $line"
    [[ $line == holding* ]] && break
  done
  during=$(rss)
  full_gc
  during_gc=$(rss)
  records=$(metric 'sluice_keys{')
  stats=$(metric 'sluice_udp_stats_keys ')
  exec {to_attacker}>&-
  while IFS= read -r line <&"$from_attacker"; do echo "   $line"; done
  exec {from_attacker}<&-
  served=yes
  wait "$attacker_pid" || served=no
  full_gc
  released_gc=$(rss)
  echo "   RSS kB: idle $idle, during $during, during+GC $during_gc, released+GC $released_gc; records held $records, UDP statistics keys $stats"
  summary+=("$(printf '| %s | %s | %s | %s | %s | %s |' "$attack" "$idle" "$during" "$during_gc" "$released_gc" "$served")")
  stop_server
done
echo "load after: $(uptime)"
echo "| attack | RSS idle kB | during | during + GC | released + GC | fresh clients served |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${summary[@]}"
