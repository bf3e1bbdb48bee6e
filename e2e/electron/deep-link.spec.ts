import { _electron as electron, expect, test } from '@playwright/test'
import { appRoot, requireElectron } from '../support/electron'

const binary = requireElectron()

test('a paydesk:// link on the command line opens its view, and a hostile one opens nothing', async () => {
  // Windows and Linux hand the link that launched Paydesk over on its command line.
  const app = await electron.launch({
    executablePath: binary,
    args: [appRoot, 'paydesk://transactions/Transaction:e2e-link-1']
  })
  const window = await app.firstWindow()
  await expect(window.getByRole('button', { name: 'Transactions', exact: true })).toHaveAttribute(
    'aria-current',
    'page'
  )
  await window.screenshot({ path: test.info().outputPath('deep-link.png') })
  await app.close()

  const hostile = await electron.launch({
    executablePath: binary,
    args: [appRoot, 'paydesk://transactions/..%2f..%2fetc%2fpasswd']
  })
  const home = await hostile.firstWindow()
  await expect(home.getByTestId('profile-bar')).toBeVisible()
  await expect(home.getByRole('button', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page')
  await hostile.close()
})
