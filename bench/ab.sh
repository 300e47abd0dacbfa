#!/usr/bin/env bash
# Interleaved A/B of one lever with `npm run bench:cpu`, so both sides see the same machine load. The sides differ by
# checkout, by environment, or both; which side goes first alternates per round. One JSON line per run, prefixed.
#   bash bench/ab.sh <rounds> [bench:cpu args]
#   AB_A_DIR  the "before" checkout (default: this one), e.g. `git worktree add /tmp/before <commit>` + `npm ci` there
#   AB_A_ENV / AB_B_ENV  settings of each side, e.g. AB_A_ENV="VIDEO_WORKER_CONCURRENCY=8"
# e.g. AB_A_DIR=/tmp/before BENCH_SECONDS=8 bash bench/ab.sh 3 --stream; BENCH_CONNECTIONS=128 passes through.
# bench/results/levers.md records the results.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
a_dir=$(cd "${AB_A_DIR:-$here}" && pwd)
rounds=${1:-3}
shift || true
run() { # side dir env...
  local side=$1 dir=$2
  line=$(cd "$dir" && env ${3:-} npm run -s bench:cpu -- "${@:4}" 2>/dev/null | tail -n 1)
  echo "$side $line"
}
for i in $(seq "$rounds"); do
  if ((i % 2)); then
    run "A $i" "$a_dir" "${AB_A_ENV:-}" "$@"
    run "B $i" "$here" "${AB_B_ENV:-}" "$@"
  else
    run "B $i" "$here" "${AB_B_ENV:-}" "$@"
    run "A $i" "$a_dir" "${AB_A_ENV:-}" "$@"
  fi
done
