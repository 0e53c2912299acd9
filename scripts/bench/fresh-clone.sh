#!/usr/bin/env bash
# scripts/bench/fresh-clone.sh 24|22 — the README's two commands timed on a fresh clone of this
# repository (HEAD), under that Node from the npm registry, with npm's cache empty: `npm install`,
# `npm start` until it answers, `npm start` again, `npm test`. Scratch files go to $TMPDIR.
# Stops the servers it starts. Figures: docs/benchmarks.md#a-fresh-clone.
set -euo pipefail
major=${1:?usage: fresh-clone.sh 24|22}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d "${TMPDIR:-/tmp}/fresh-clone-$major.XXXX")
git clone -q "$repo" "$work/clone"
cd "$work/clone"
node_run() { npx -y -p "node@$major" -- "$@"; }
probe='http://127.0.0.1:8787/1.0/search/cities?name=berlin'
seconds() { echo "$(date +%s.%N) - $1" | bc; }
until_serving() {
  for _ in $(seq 1 1200); do curl -sf -o /dev/null -H 'Accept: application/json' "$probe" && return 0; sleep 0.5; done
  echo "npm start did not answer within 10 minutes" >&2; return 1
}
start_and_time() {
  local started; started=$(date +%s.%N)
  node_run npm start > "$work/start-$1.log" 2>&1 &
  local pid=$!
  until_serving
  echo "npm start ($1): serving after $(seconds "$started") s"
  kill -- "-$pid" 2>/dev/null || kill "$pid"; pkill -f "$work/clone/node_modules" || true; sleep 2
}
set -m
echo "node $(node_run node -v)"
started=$(date +%s.%N)
npm_config_cache="$work/npm-cache" node_run npm install > "$work/install.log" 2>&1
echo "npm install: $(seconds "$started") s; EBADENGINE warnings: $(grep -c EBADENGINE "$work/install.log" || true)"
start_and_time first
start_and_time again
started=$(date +%s.%N)
node_run npm test > "$work/test.log" 2>&1
echo "npm test: $(seconds "$started") s; $(grep -a 'Tests ' "$work/test.log" | tail -1)"
rm -rf "$work"
