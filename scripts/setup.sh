#!/usr/bin/env bash
# Installs what Paydesk needs on a fresh Debian/Ubuntu machine, and nothing twice:
#   system: chromium (e2e browser), libsecret-1-dev (keytar build), gnome-keyring + dbus (OS keychain in tests),
#           postgresql-15 and haproxy (the approval gate's PostgreSQL store and its HA test: real servers, started by the
#           tests in throw-away directories; Debian's own clusters are not used)
#   npm:    the locked dependencies, without any download of Electron or Playwright browser binaries
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in chromium libsecret-1-dev gnome-keyring dbus dbus-daemon postgresql-15 haproxy; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${need[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# Binaries these tools would try to fetch from the internet are never downloaded: Debian's Chromium is used for e2e,
# and the Electron binary is optional (npm start falls back to browser mode without it).
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 ELECTRON_SKIP_BINARY_DOWNLOAD=1
# Install when the manifests' content changed since the last install (content, not mtimes: a checkout or an edit that
# changes nothing must not trigger a reinstall).
stamp=node_modules/.paydesk-installed
manifests=$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$manifests" ]; then
  echo "setup: installing the locked npm dependencies"
  # Not `npm ci`: this workplace's registry lacks other platforms' optional packages (e.g. rollup's android/darwin
  # builds), so the lockfile cannot list them and `npm ci` refuses it. `npm install` installs exactly the locked
  # versions and skips the unavailable optional ones; --no-save keeps package.json and the lockfile untouched.
  npm install --no-save --no-audit --no-fund --loglevel=error
  # keytar and the SQLite binding are native addons: make sure each was built for this Node. Their install scripts try
  # a prebuilt download first, which this network refuses, then build from source (the SQLite one takes about 80 s).
  for addon in keytar better-sqlite3-multiple-ciphers; do
    node -e "require('$addon')" 2>/dev/null || npm rebuild "$addon" --loglevel=error
  done
  echo "$manifests" > "$stamp"
fi

# The unit tests also run on Node 22, the Node line inside Electron 45 (scripts/test-all.sh). On a machine whose Node
# is another line, Node 22 and a SQLite binding for its ABI are installed locally (scripts/setup-node22.sh; once).
if [ "$(node -p 'process.versions.node.split(".")[0]')" != 22 ]; then
  bash scripts/setup-node22.sh >/dev/null
fi
