#!/usr/bin/env bash
# The production path on a fresh clone, as the README documents it: install, build, drop the dev
# dependencies, start with plain node. The clone sits in a 0700 directory, so when this runs as
# root it also proves the embedded PostgreSQL starts for root (it runs as the postgres user, who
# cannot enter that directory). Prints install sizes and the start-up line.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
home="$(mktemp -d)"
chmod 700 "$home"
app="$home/rpm-portal"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM -- "-$pid"; wait "$pid" || true; fi
  # The cluster placed outside the clone for the postgres user (root runs) goes with it.
  if [ -f "$app/.data/pg-location" ]; then rm -rf "$(dirname "$(cat "$app/.data/pg-location")")"; fi
  rm -rf "$home"
}
trap cleanup EXIT

git clone --quiet "$repo" "$app"
cd "$app"
npm ci --prefer-offline --no-audit --no-fund --loglevel=error
echo "production check: full install $(du -sm node_modules | cut -f1) MB"
npm run build --silent >/dev/null
npm prune --omit=dev --no-audit --no-fund --loglevel=error
echo "production check: after npm prune --omit=dev $(du -sm node_modules | cut -f1) MB"
if [ -n "$(npm ls tsx vite typescript @mui/material --omit=dev --parseable 2>/dev/null)" ] || [ -e node_modules/tsx ]; then
  echo "production check: FAILED: a dev dependency is left after npm prune --omit=dev" >&2
  exit 1
fi

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
# Its own process group: npm start's node child must get the signals too.
PORT=$port PORTAL_ADMIN_PASSWORD='Production-check-Pa55!' setsid npm start >"$home/start.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do
  if grep -q "portal ready" "$home/start.log"; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.5
done
if ! grep -q "portal ready" "$home/start.log"; then
  cat "$home/start.log" >&2
  echo "production check: FAILED: the portal did not start" >&2
  exit 1
fi
curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null
grep -o '"msg":"[^"]*"' "$home/start.log" | grep -iE "ready|postgres" || true
kill -TERM -- "-$pid"
wait "$pid" || true
pid=""
if grep -qE "^\s+at " "$home/start.log"; then
  cat "$home/start.log" >&2
  echo "production check: FAILED: a stack trace in the output" >&2
  exit 1
fi
echo "production check: passed (uid $(id -u))"
