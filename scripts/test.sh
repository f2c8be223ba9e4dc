#!/usr/bin/env bash
# `npm test`: every check the project has, in the order that fails fastest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh node chromium postgres
echo "== typecheck"; npx tsc --noEmit -p tsconfig.json
echo "== lint"; npx biome check .
# The layer rules run once, in vitest (tests/unit/layers.test.ts: the real tree, and planted violations).
echo "== unused files and dependencies (knip)"; npm run -s knip
echo "== unit and ground-truth tests (vitest)"; npx vitest run
echo "== build"; npx vite build --logLevel warn
echo "== browser tests (playwright)"; npx playwright test
