#!/usr/bin/env bash
# Installs what the benchmark scripts here need beyond the build's tools (deploy/install-build-tools.sh):
# wrk, the HTTP load of check.sh, check-compare.sh, check-profile.sh and compare.sh; redis-server and
# redis-tools (redis-benchmark), the comparison of redis.sh. The Throttr, UDP, gRPC and WebSocket loads
# come from sluice-bench.jar, built with the project. Debian; installs only what is missing.
set -euo pipefail
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-benchmark >/dev/null 2>&1 || missing+=(redis-tools)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
$sudo_cmd apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
