import { resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { electronBinary } from '../support/electron'

const root = resolve(import.meta.dirname, '../..')

const binary = electronBinary()
const SKIP_REASON =
  'Electron suite skipped: no Electron binary on this machine (it cannot be downloaded here); browser-mode e2e covers the renderer'
// One line, once (the runner loads this file; workers set TEST_WORKER_INDEX), where there is nothing to launch.
if (!binary && process.env['TEST_WORKER_INDEX'] === undefined) console.log(SKIP_REASON)
test.skip(!binary, SKIP_REASON)

test('the desktop window opens the shell with the profile bar, locked down', async () => {
  const app = await electron.launch({
    executablePath: binary!,
    // Under scripts/with-keyring.sh, HOME and XDG_CONFIG_HOME are a throw-away folder: the app's data goes there.
    args: [root]
  })
  const window = await app.firstWindow()
  await expect(window.getByTestId('profile-bar')).toBeVisible()
  const exposed = await window.evaluate(() => ({
    paydesk: typeof (window as unknown as { paydesk?: unknown }).paydesk,
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process
  }))
  expect(exposed).toEqual({ paydesk: 'object', require: 'undefined', process: 'undefined' })
  await window.screenshot({ path: test.info().outputPath('electron-shell.png') })
  await app.close()
})
