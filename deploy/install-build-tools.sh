#!/usr/bin/env bash
# Installs what building and testing Sluice needs on a Debian machine: a JDK (17 or newer), Maven,
# nginx (the HTTP check API's end-to-end test runs a real nginx) and Chromium with its WebDriver (the
# dashboard's browser test drives a headless Chromium). Those tests skip when their tool is missing.
# systemd (systemd-analyze verify checks deploy/systemd/sluice.service) and prometheus (promtool
# checks deploy/prometheus/sluice-rules.yml): the deploy kit's tests skip without them, except in CI.
# tshark (the cluster's capture test shows member traffic carries no key in clear; it runs as root,
# and skips otherwise unless CI=true). iptables and python3: the cluster's latency scenario delays
# and drops packets through iptables' NFQUEUE (verticles/benchmarks/scripts/link-delay.py), as tc
# netem would on a kernel that has it. Does nothing when they are already there.
set -euo pipefail
need=()
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
# Debian puts nginx in /usr/sbin, which is not on every user's PATH.
{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || need+=(nginx)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
command -v tshark >/dev/null 2>&1 || need+=(tshark)
# Debian puts iptables in /usr/sbin, which is not on every user's PATH.
{ command -v iptables >/dev/null 2>&1 || [ -x /usr/sbin/iptables ]; } || need+=(iptables)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  # wireshark-common asks whether non-root users may capture: no (the test captures as root).
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo_cmd debconf-set-selections
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${need[@]}"
fi
