#!/usr/bin/env bash
# Idle RSS of the gateway as `npm start` runs it (the bundle), on the embedded store: a first start (fresh DATA_DIR: initdb and
# migrations) and a restart on the same directory, each read from /proc 3 s after /healthz answers.
# Usage: bash bench/idle-rss.sh [port]
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/build-server.cjs
port="${1:-18890}"
dir="$(mktemp -d)"
measure() {
  DATA_DIR="$dir" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=warn node packages/server/dist/main.js >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
  sleep 3
  echo "$1: $(awk '/VmRSS/ {printf "%d MB", $2 / 1024}' "/proc/$pid/status") RSS"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}
measure "first start"
measure "restart"
rm -rf "$dir"
