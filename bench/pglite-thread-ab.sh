#!/usr/bin/env bash
# Embedded store in its own thread (the default) against on the event loop (GATEWAY_PGLITE_THREAD=0), interleaved:
# each round runs `npm run bench:cpu` at c=16 and c=128 in both modes, alternating which goes first (docs/adr/0004).
# Usage: bash bench/pglite-thread-ab.sh [rounds]   (BENCH_SECONDS passes through; one JSON line per run)
set -euo pipefail
cd "$(dirname "$0")/.."
for round in $(seq 1 "${1:-3}"); do
  order=(1 0)
  ((round % 2 == 0)) && order=(0 1)
  for c in 16 128; do
    for thread in "${order[@]}"; do
      line=$(GATEWAY_PGLITE_THREAD=$thread BENCH_CONNECTIONS=$c node --import tsx bench/cpu.ts | tail -1)
      echo "{\"round\":$round,\"thread\":$thread,${line#\{}"
    done
  done
done
