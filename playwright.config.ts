import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium'

/**
 * E2E drives the real renderer in Debian's Chromium against browser mode (never a downloaded browser), and the
 * Electron suite where an Electron binary can run. Screenshots of every flow are kept under test-results/.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS
    }
  },
  projects: [
    { name: 'web', testDir: 'e2e/web', use: { browserName: 'chromium' } },
    { name: 'electron', testDir: 'e2e/electron' }
  ]
})
