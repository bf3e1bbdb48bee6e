// Prints one closing line for the whole test run, from the vitest and Playwright JSON reports:
//   "tests: N passed, N failed, N skipped"
import { readFileSync } from 'node:fs'

const [vitestReport, playwrightReport] = process.argv.slice(2)
let passed = 0
let failed = 0
let skipped = 0

const vitest = JSON.parse(readFileSync(vitestReport, 'utf8'))
passed += vitest.numPassedTests
failed += vitest.numFailedTests
skipped += vitest.numPendingTests + vitest.numTodoTests

const playwright = JSON.parse(readFileSync(playwrightReport, 'utf8'))
passed += playwright.stats.expected + playwright.stats.flaky
failed += playwright.stats.unexpected
skipped += playwright.stats.skipped

console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
