#!/usr/bin/env bash
# `npm start`: what we ship, served as a production host would. Installs what is missing, builds dist/
# when it is missing or older than its sources, and serves it with the project's own static server
# (pre-compressed files, the Content-Security-Policy header). `npm run dev` is Vite's dev server.
#   PORT=8080 npm start      another port (default 4180)
#   HOST=0.0.0.0 npm start   listen beyond this machine (default 127.0.0.1)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh node

port="${PORT:-4180}"
host="${HOST:-127.0.0.1}"
if ! [[ "$port" =~ ^[0-9]{1,5}$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
  echo "lease-lab: PORT must be a whole number from 1 to 65535, not \"$port\"" >&2
  exit 2
fi

# dist/ is stale when any input of the build is newer than its index.html, which every build writes.
stamp=dist/index.html
inputs=(src public index.html vite.config.ts package-lock.json tsconfig.json scripts/build-datadir.ts scripts/build-datadir-plugin.mjs)
stale=no
if [ ! -f "$stamp" ] || [ ! -f dist/sw.js ]; then
  stale=yes
else
  existing=()
  for input in "${inputs[@]}"; do [ -e "$input" ] && existing+=("$input"); done
  if [ -n "$(find "${existing[@]}" -newer "$stamp" -print -quit)" ]; then stale=yes; fi
fi
if [ "$stale" = yes ]; then
  echo "lease-lab: building the app into dist/ (about a minute the first time)…"
  log=$(mktemp)
  if ! npx vite build --logLevel error >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "lease-lab: the build failed (above)." >&2
    exit 1
  fi
  rm -f "$log"
fi

exec node --import tsx scripts/serve-static.ts dist --port "$port" --host "$host"
