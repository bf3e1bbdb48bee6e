#!/usr/bin/env bash
# Runs a command in a private network namespace that has only the loopback interface, so no test can reach anything
# beyond 127.0.0.1 — not the real Payments API, not a mistyped host — even by accident.
# Usage: scripts/loopback-only.sh <command> [args...]
set -euo pipefail

if [ -n "${PAYDESK_LOOPBACK_ONLY:-}" ]; then
  ip link set lo up 2>/dev/null || true
  exec "$@"
fi
export PAYDESK_LOOPBACK_ONLY=1
for flags in "-n" "-rn"; do
  if unshare $flags true 2>/dev/null; then
    exec unshare $flags "$0" "$@"
  fi
done
if [ -n "${CI:-}" ] && [ -z "${PAYDESK_ALLOW_NETWORK:-}" ]; then
  echo "loopback-only: cannot create a network namespace, and CI must not run tests with network access." >&2
  echo "loopback-only: set PAYDESK_ALLOW_NETWORK=1 to run anyway." >&2
  exit 1
fi
echo "loopback-only: cannot create a network namespace here; running with the machine's network." >&2
exec "$@"
