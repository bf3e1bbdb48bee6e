#!/usr/bin/env bash
# Runs a command with a real, unlocked OS keychain (Secret Service via gnome-keyring) in an isolated HOME/XDG_* temp dir,
# so tests exercise keytar for real without touching the user's own keyring.
# Usage: scripts/with-keyring.sh <command> [args...]
set -euo pipefail

if [ -z "${PAYDESK_KEYRING_INNER:-}" ]; then
  tmp=$(mktemp -d -t paydesk-keyring-XXXXXX)
  mkdir -p "$tmp/home" "$tmp/config" "$tmp/data" "$tmp/cache" "$tmp/runtime"
  chmod 700 "$tmp/runtime"
  trap 'rm -rf "$tmp"' EXIT
  export PAYDESK_REAL_HOME="${HOME:-/root}"
  export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache" \
    XDG_RUNTIME_DIR="$tmp/runtime" PAYDESK_KEYRING_INNER=1
  # Tools installed under the real HOME (npm cache, Playwright settings) keep working.
  export npm_config_cache="${npm_config_cache:-$PAYDESK_REAL_HOME/.npm}"
  exec dbus-run-session -- "$0" "$@"
fi

# Inside the private session bus: start the keyring daemon unlocked with a throwaway, non-empty password.
eval "$(printf 'paydesk-test-keyring' | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
export GNOME_KEYRING_CONTROL
"$@"
