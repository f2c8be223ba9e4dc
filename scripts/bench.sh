#!/usr/bin/env bash
# `npm run bench`: the engine in Node, then the built app in headless Chromium. Figures, not tests:
# each row shows its target beside it, and nothing fails on a miss.
#   npm run bench                 both halves
#   npm run bench -- node         the Node half only
#   npm run bench -- browser      the browser half only
#   npm run bench -- explore      the interleaving explorer only (Node)
#   npm run bench -- backpressure the backpressure lab only (Node and Chromium)
#   npm run bench -- robustness   hang recovery, UI fuzzing speed, large console answers (figures the tests no longer assert)
#   npm run bench -- analyze      reading a learner's statement with PostgreSQL's parser (Node and Chromium)
#   npm run bench -- spec         your own SQL: parsing a spec, its permutations on PGlite, check on PGlite and a server
#   npm run bench -- warm         a returning learner: cold, warm (offline copy saved) and first-click figures beside plain PGlite (Chromium)
# BENCH_STARTS, BENCH_STEPS, BENCH_LOADS, BENCH_STEPS_PER_LOAD change the sample counts; BENCH_ENGINE_CPU=1 (warm) adds the engine thread's CPU time by phase.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
case "$what" in all|node|browser|explore|backpressure|robustness|analyze|warm|spec) ;; *) echo "usage: npm run bench -- [all|node|browser|explore|backpressure|robustness|analyze|warm|spec]" >&2; exit 2 ;; esac

bash scripts/ensure-deps.sh node
case "$what" in all|browser|backpressure|robustness|analyze|warm) bash scripts/ensure-deps.sh chromium ;; esac
case "$what" in all|spec) bash scripts/ensure-deps.sh postgres ;; esac
run() { node --import tsx --import ./scripts/raw-loader.mjs "$@"; }

run scripts/build-datadir.ts
# Each half runs when asked for by name or with "all"; a bench file that does not exist yet is skipped.
part() { [ "$what" = all ] || [ "$what" = "$1" ]; }
part node && run bench/node.bench.ts
part browser && run bench/browser.bench.ts
part explore && [ -f bench/explore.bench.ts ] && run bench/explore.bench.ts
part backpressure && [ -f bench/backpressure.bench.ts ] && run bench/backpressure.bench.ts
part robustness && run bench/robustness.bench.ts
part analyze && run bench/analyze.bench.ts
part warm && run bench/warm.bench.ts
part spec && run bench/spec.bench.ts
true
