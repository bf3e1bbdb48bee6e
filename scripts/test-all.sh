#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what is missing, then typecheck, lint, build, unit and integration
# tests (vitest) and end-to-end tests (Playwright in Debian's Chromium, plus the Electron suite where a binary exists),
# all against a real OS keychain in an isolated HOME, and inside a network namespace that only has loopback.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${PAYDESK_LOOPBACK_ONLY:-}" ]; then
  bash scripts/setup.sh # the only step that needs the network (apt, npm registry)
  exec scripts/loopback-only.sh bash "$0" "$@"
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 ELECTRON_SKIP_BINARY_DOWNLOAD=1

step() { printf '\n== %s\n' "$*"; }
step "typecheck"
npm run --silent typecheck
step "lint (eslint, prettier)"
npm run --silent lint
step "build (electron-vite)"
npx electron-vite build --logLevel warn
reports=$(mktemp -d)
step "unit and integration tests (vitest, real keychain)"
scripts/with-keyring.sh npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json"
step "end-to-end tests (Playwright, Debian Chromium, browser mode)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" scripts/with-keyring.sh npx playwright test --reporter=list,json
node scripts/summary.mjs "$reports/vitest.json" "$reports/playwright.json"
