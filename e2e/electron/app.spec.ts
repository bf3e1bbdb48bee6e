import { _electron as electron, expect, test } from '@playwright/test'
import { appRoot as root, requireElectron } from '../support/electron'

const binary = requireElectron()

test('the desktop window opens the shell with the profile bar, locked down', async () => {
  const app = await electron.launch({
    executablePath: binary,
    // Under scripts/with-keyring.sh, HOME and XDG_CONFIG_HOME are a throw-away folder: the app's data goes there.
    args: [root]
  })
  const window = await app.firstWindow()
  await expect(window.getByTestId('profile-bar')).toBeVisible()
  // The built page on its own scheme, never file://.
  expect(window.url()).toBe('app://paydesk/index.html')
  const exposed = await window.evaluate(() => ({
    paydesk: typeof (window as unknown as { paydesk?: unknown }).paydesk,
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process
  }))
  expect(exposed).toEqual({ paydesk: 'object', require: 'undefined', process: 'undefined' })
  await window.screenshot({ path: test.info().outputPath('electron-shell.png') })
  await app.close()
})
