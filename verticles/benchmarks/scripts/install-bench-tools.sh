#!/usr/bin/env bash
# Installs what the benchmark scripts here need beyond the build's tools (deploy/install-build-tools.sh):
# wrk, the HTTP load of check.sh, check-compare.sh, check-profile.sh and compare.sh. The Throttr, UDP,
# gRPC and WebSocket loads come from sluice-bench.jar, built with the project. Debian; does nothing
# when wrk is already there.
set -euo pipefail
command -v wrk >/dev/null 2>&1 && exit 0
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
$sudo_cmd apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q wrk
