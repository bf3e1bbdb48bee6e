import { defineConfig } from '@playwright/test'

/**
 * E2E drives the real renderer in Debian's Chromium against browser mode (never a downloaded browser), and the
 * Electron suite where an Electron binary can run. Screenshots of every flow are kept under test-results/.
 */
export const CHROMIUM_PATH = process.env['PAYDESK_CHROMIUM'] ?? '/usr/bin/chromium'

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
      // The machine's network is closed: keep Chromium from phoning home, and run as root without its own sandbox.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
      ]
    }
  },
  projects: [
    { name: 'web', testDir: 'e2e/web', use: { browserName: 'chromium' } },
    { name: 'electron', testDir: 'e2e/electron' }
  ]
})
