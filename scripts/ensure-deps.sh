#!/usr/bin/env bash
# Installs what `npm start` / `npm test` need when it is missing. Safe to run repeatedly.
# Usage: ensure-deps.sh [node] [chromium] [postgres]
set -euo pipefail
cd "$(dirname "$0")/.."

need_root_or_say() {
  # $1: what is missing, $2: the command that installs it
  if [ "$(id -u)" != "0" ]; then
    echo "lease-lab: $1 is missing. Install it with:  sudo $2" >&2
    exit 1
  fi
}

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

for what in "$@"; do
  case "$what" in
    node)
      # Re-install when the lockfile changed since the last install.
      stamp=node_modules/.lease-lab-lock
      want=$(sha1sum package-lock.json | cut -d' ' -f1)
      if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "lease-lab: installing npm dependencies (npm ci)…"
        npm ci --no-audit --no-fund --loglevel=error
        echo "$want" > "$stamp"
      fi
      ;;
    chromium)
      if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then
        need_root_or_say "Chromium (for the browser tests)" "apt-get install -y chromium fonts-liberation"
        echo "lease-lab: installing Debian's chromium…"
        apt_install chromium fonts-liberation
      fi
      # The browser tests run in its headless shell (playwright.config.ts says why).
      if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium-headless-shell ]; then
        need_root_or_say "Chromium's headless shell (for the browser tests)" "apt-get install -y chromium-headless-shell"
        echo "lease-lab: installing Debian's chromium-headless-shell…"
        apt_install chromium-headless-shell
      fi
      ;;
    postgres)
      if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
        need_root_or_say "PostgreSQL (for the ground-truth tests)" "apt-get install -y postgresql"
        echo "lease-lab: installing Debian's postgresql…"
        apt_install postgresql
      fi
      ;;
    *) echo "ensure-deps: unknown target $what" >&2; exit 2 ;;
  esac
done
