#!/usr/bin/env bash
# `npm run fuzz -- --seed N [--actions K]`: replays one seed of the UI fuzz test (tests/e2e/fuzz.spec.ts)
# on a fresh build, e.g. the seed a failure printed. Without --seed it runs the seeds `npm test` runs, each
# four times as long (500 actions a seed, where `npm test` plays 125).
#   --seed N       a whole number, 0 to 4294967295
#   --actions K    actions to play, 1 to 100000 (default 500)
#   --no-build     use the dist/ already built
# Set E2E_DIST / E2E_PORT / E2E_DEV_PORT to use another build directory or other ports.
set -euo pipefail
cd "$(dirname "$0")/.."
usage='usage: npm run fuzz -- [--seed N] [--actions K] [--no-build]'
build=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --seed|--actions)
      [ $# -ge 2 ] || { echo "$1 needs a value. $usage" >&2; exit 2; }
      name="$1"; value="$2"; shift 2 ;;
    --seed=*|--actions=*)
      name="${1%%=*}"; value="${1#*=}"; shift ;;
    --no-build) build=no; shift; continue ;;
    *) echo "unknown argument \"$1\". $usage" >&2; exit 2 ;;
  esac
  case "$name" in
    --seed)
      { [[ "$value" =~ ^[0-9]{1,10}$ ]] && [ "$value" -le 4294967295 ]; } || { echo "--seed takes a whole number from 0 to 4294967295, not \"$value\"" >&2; exit 2; }
      export FUZZ_SEED="$value" ;;
    --actions)
      { [[ "$value" =~ ^[0-9]{1,6}$ ]] && [ "$value" -ge 1 ] && [ "$value" -le 100000 ]; } || { echo "--actions takes a whole number from 1 to 100000, not \"$value\"" >&2; exit 2; }
      export FUZZ_ACTIONS="$value" ;;
  esac
done

export FUZZ_ACTIONS="${FUZZ_ACTIONS:-500}"
bash scripts/ensure-deps.sh node chromium
dist="${E2E_DIST:-dist}"
if [ "$build" = yes ]; then npx vite build --logLevel warn --outDir "$dist"; fi
E2E_DIST="$dist" npx playwright test tests/e2e/fuzz.spec.ts
