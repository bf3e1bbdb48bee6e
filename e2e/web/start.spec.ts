import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { printedUrl } from '../support/browser-mode'
import { electronBinary } from '../support/electron'

const root = resolve(import.meta.dirname, '../..')

test('npm start says in one line that Electron is missing and opens browser mode instead', async ({ page }) => {
  test.skip(
    electronBinary() !== null,
    'This machine can run Electron; npm start opens the desktop app (covered by the electron suite)'
  )
  test.setTimeout(180_000)
  const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-start-'))
  const child = spawn('npm', ['start', '--silent', '--', '--port', '0'], {
    cwd: root,
    env: { ...process.env, PAYDESK_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true
  })
  const printed = printedUrl(child, 'npm start', 170_000)
  try {
    const url = await printed.url
    const notices = printed
      .output()
      .split('\n')
      .filter((line) => line.includes('Electron binary is not available'))
    expect(notices).toEqual([
      'Paydesk: the Electron binary is not available on this machine, so Paydesk starts in browser mode instead.'
    ])
    await page.goto(url)
    await expect(page.getByTestId('environment-chip')).toHaveText('Local sandbox')
  } finally {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r))
      process.kill(-child.pid, 'SIGTERM') // npm, node and the backend: the whole group
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
})
