#!/usr/bin/env bash
# `npm start`: install what is missing, then serve the app (Vite prints the URL).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh node
exec npx vite --host 127.0.0.1 --port "${PORT:-5173}"
