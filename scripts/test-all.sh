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
if [ "$(node -p 'process.versions.node.split(".")[0]')" != 22 ]; then
  # Electron 45 runs main on Node 22: the same suite again on that line, with the SQLite binding built for its ABI
  # (keytar is N-API and loads as it is). Node 22's folder goes first on PATH so forks and npx run on it too.
  # The packaging test is left out of this pass: what it checks is electron-builder's output, not the Node line.
  node22_home=$(bash scripts/setup-node22.sh)
  step "unit and integration tests again on Node $("$node22_home/node_modules/node/bin/node" -v) (Electron 45's line; packaging test not repeated: it checks electron-builder's output, which does not depend on the Node line)"
  PATH="$node22_home/node_modules/node/bin:$PATH" PAYDESK_SQLITE_BINDING="$node22_home/better_sqlite3.node" \
    scripts/with-keyring.sh node node_modules/vitest/vitest.mjs run --exclude 'tests/build/**'
fi
step "end-to-end tests (Playwright, Debian Chromium, browser mode)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" scripts/with-keyring.sh npx playwright test --reporter=list,json
node scripts/summary.mjs "$reports/vitest.json" "$reports/playwright.json"
