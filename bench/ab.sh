#!/usr/bin/env bash
# Interleaved A/B of one lever: `bash bench/ab.sh <other checkout> <rounds> [bench:cpu args]`, e.g.
#   git worktree add /tmp/before <commit-before> && (cd /tmp/before && npm ci)
#   BENCH_SECONDS=8 bash bench/ab.sh /tmp/before 3 --stream
# Runs `npm run bench:cpu` alternately in the other checkout (A, before) and in this one (B, after), so both see the
# same machine load, and prints each run's JSON line prefixed by A or B. docs/benchmarks-levers.md records the results.
set -uo pipefail
other=$(cd "$1" && pwd); rounds=${2:-3}; shift 2 || shift $#
here=$(cd "$(dirname "$0")/.." && pwd)
for i in $(seq "$rounds"); do
  for side in A B; do
    dir=$here; [ "$side" = A ] && dir=$other
    line=$(cd "$dir" && npm run -s bench:cpu -- "$@" 2>/dev/null | tail -n 1)
    echo "$side $i $line"
  done
done
