#!/usr/bin/env bash
# Before and after in one sitting: `npm run bench` on earlier commits and on this checkout,
# alternately, so that every side sees the same machine load (the machine is shared and noisy; a
# figure from another day is no baseline). Ends with the median and range, over the rounds, of
# each side's vitals and floor figures.
#
#   scripts/bench-compare.sh <base commit> [rounds] [other commit ...]
#
# A side given as a directory rather than a commit is a checkout already installed and built,
# used as it is.
# Sides, in this order each round: the base, the other commits, this checkout. Each earlier commit
# is checked out in a temporary worktree and built once; its modules are installed with `npm ci`,
# or hard-linked from this checkout's with BENCH_LINK_MODULES=1 (quick, and right when the older
# lockfile only lacks packages this one added: check with `git diff <base> -- package-lock.json`).
# Each side runs its own bench.ts, which seeds its own schema; the load drivers must be the same
# code on every side for the figures to compare (they are since bench-load.ts was split out of
# bench.ts unchanged). Sizes come from the BENCH_* variables (see packages/server/scripts/bench.ts
# and bench-load.ts); the defaults here are smaller than the bench's own so that a round takes
# minutes: 200,000 readings, 2,000 patients, 5 s, one run per round. The whole output is kept in
# BENCH_COMPARE_LOG (a temporary file unless given).
set -euo pipefail
base=${1:?usage: scripts/bench-compare.sh <base commit> [rounds] [other commit ...]}
rounds=${2:-5}
shift $(($# < 2 ? $# : 2))
here=$(cd "$(dirname "$0")/.." && pwd)
export BENCH_READINGS=${BENCH_READINGS:-200000} BENCH_PATIENTS=${BENCH_PATIENTS:-2000}
export BENCH_SECONDS=${BENCH_SECONDS:-5} BENCH_RUNS=${BENCH_RUNS:-1}
log=${BENCH_COMPARE_LOG:-$(mktemp)}
: >"$log"

trees=()
cleanup() { for t in "${trees[@]}"; do git -C "$here" worktree remove --force "$t" >/dev/null 2>&1 || true; done; }
trap cleanup EXIT
sides=()
for commit in "$base" "$@"; do
  # A directory is a checkout already installed and built (another worktree): used as it is.
  if [ -d "$commit" ]; then
    sides+=("$(git -C "$commit" rev-parse --short HEAD):$(cd "$commit" && pwd)")
    continue
  fi
  tree=$(mktemp -d)
  trees+=("$tree")
  git -C "$here" worktree add -q --detach "$tree" "$commit"
  if [ "${BENCH_LINK_MODULES:-}" = 1 ]; then
    for m in "$here"/node_modules "$here"/packages/*/node_modules "$here"/e2e/node_modules; do
      [ -d "$m" ] && cp -al "$m" "$tree/${m#"$here"/}"
    done
  else
    (cd "$tree" && npm ci --silent)
  fi
  (cd "$tree" && node scripts/start.mjs --build-only >/dev/null)
  sides+=("$(git -C "$here" rev-parse --short "$commit"):$tree")
done
(cd "$here" && node scripts/start.mjs --build-only >/dev/null)
sides+=("this:$here")

for round in $(seq 1 "$rounds"); do
  for side in "${sides[@]}"; do
    echo "=== round ${round}: ${side%%:*} ($(git -C "${side#*:}" rev-parse --short HEAD)) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
    (cd "${side#*:}" && npx tsx --conditions=@rpm/source packages/server/scripts/bench.ts 2>&1) |
      tee -a "$log" | grep -E '^ +(vitals|patient list|audited)' || true
  done
done

# Median and range per side of the per-run lines ("  vitals: portal  p50 … ms, p99 … ms at …; saturated … req/s").
node - "$log" <<'EOF'
const lines = require('node:fs').readFileSync(process.argv[2], 'utf8').split('\n');
const figures = new Map(); // side → case → { p50: [], p99: [], rps: [] }
let side = '';
let round = 0;
for (const line of lines) {
  const head = /^=== round (\d+): (\S+)/.exec(line);
  if (head) [round, side] = [Number(head[1]), head[2]];
  const m = /^ +(vitals: portal|vitals: replay of its SQL|audited-read floor \(pg\)) +p50 ([\d.]+) ms, p99 ([\d.]+) ms at \d+ req\/s; saturated (\d+) req\/s, CPU ms\/request: driver ([\d.]+), server ([\d.]+), database ([\d.]+)/.exec(line);
  if (!m) continue;
  const byCase = figures.get(side) ?? new Map();
  figures.set(side, byCase);
  const f = byCase.get(m[1]) ?? { p50: [], p99: [], rps: [], server: [], database: [], byRound: new Map() };
  byCase.set(m[1], f);
  f.p50.push(Number(m[2]));
  f.p99.push(Number(m[3]));
  f.rps.push(Number(m[4]));
  f.byRound.set(round, Number(m[4]));
  f.server.push(Number(m[6]));
  f.database.push(Number(m[7]));
}
const summary = (xs, digits) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return `${mid.toFixed(digits)} (${s[0].toFixed(digits)}–${s[s.length - 1].toFixed(digits)})`;
};
console.log(
  '\nmedian (range) over the rounds; p50/p99 in ms at the fixed rate, saturated in req/s, and the CPU ms per\n' +
    'request (saturated) of the server process and of the database; last, the portal as a share of its replay and\n' +
    'of the floor, each pair measured in the same run',
);
for (const [name, byCase] of figures) {
  for (const [label, f] of byCase) {
    const cpu = `CPU server ${summary(f.server, 2)}, database ${summary(f.database, 2)}`;
    console.log(`${name.padEnd(8)} ${label.padEnd(26)} n=${f.rps.length}  p50 ${summary(f.p50, 2)}  p99 ${summary(f.p99, 2)}  saturated ${summary(f.rps, 0)}  ${cpu}`);
  }
  const portal = byCase.get('vitals: portal')?.byRound ?? new Map();
  for (const other of ['vitals: replay of its SQL', 'audited-read floor (pg)']) {
    const base = byCase.get(other)?.byRound ?? new Map();
    const shares = [...portal].filter(([r]) => base.has(r)).map(([r, rps]) => (100 * rps) / base.get(r));
    if (shares.length) console.log(`${name.padEnd(8)} portal / ${other}: ${summary(shares, 0)} %`);
  }
}
EOF
echo "whole output: $log"
