#!/usr/bin/env bash
# Before and after in one sitting: `npm run bench` on an earlier commit and on this checkout,
# alternately, so that both sides see the same machine load (the machine is shared and noisy; a
# figure from another day is no baseline).
#
#   scripts/bench-compare.sh <base commit> [rounds]
#
# The base is checked out in a temporary worktree, installed and built once. Sizes come from the
# BENCH_* variables (see packages/server/scripts/bench.ts and bench-load.ts); the defaults here are smaller than the
# bench's own so that a round takes minutes: 200,000 readings, 2,000 patients, 5 s, 3 runs.
set -euo pipefail
base=${1:?usage: scripts/bench-compare.sh <base commit> [rounds]}
rounds=${2:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
export BENCH_READINGS=${BENCH_READINGS:-200000} BENCH_PATIENTS=${BENCH_PATIENTS:-2000}
export BENCH_SECONDS=${BENCH_SECONDS:-5} BENCH_RUNS=${BENCH_RUNS:-3}

old=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$old" >/dev/null 2>&1 || true' EXIT
git -C "$here" worktree add -q --detach "$old" "$base"
(cd "$old" && npm ci --silent && node scripts/start.mjs --build-only >/dev/null)
(cd "$here" && node scripts/start.mjs --build-only >/dev/null)

for round in $(seq 1 "$rounds"); do
  for side in base:"$old" this:"$here"; do
    echo "=== round ${round}: ${side%%:*} ($(git -C "${side#*:}" rev-parse --short HEAD))"
    (cd "${side#*:}" && npx tsx --conditions=@rpm/source packages/server/scripts/bench.ts 2>&1 | grep -E '^(vitals|patient list|audited|case|---)')
  done
done
