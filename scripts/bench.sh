#!/usr/bin/env bash
# `npm run bench`: the engine in Node, then the built app in headless Chromium. Figures, not tests:
# each row shows its target beside it, and nothing fails on a miss.
#   npm run bench                 both halves
#   npm run bench -- node         the Node half only
#   npm run bench -- browser      the browser half only
# BENCH_STARTS, BENCH_STEPS, BENCH_LOADS, BENCH_STEPS_PER_LOAD change the sample counts.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
case "$what" in all|node|browser) ;; *) echo "usage: npm run bench -- [all|node|browser]" >&2; exit 2 ;; esac

bash scripts/ensure-deps.sh node
[ "$what" = node ] || bash scripts/ensure-deps.sh chromium
run() { node --import tsx --import ./scripts/raw-loader.mjs "$@"; }

run scripts/build-datadir.ts
[ "$what" = browser ] || run bench/node.bench.ts
[ "$what" = node ] || run bench/browser.bench.ts
