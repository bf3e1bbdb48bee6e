import { _electron as electron, expect, test } from '@playwright/test'
import { appRoot, requireElectron } from '../support/electron'

const binary = requireElectron()

test('the badge shows no approvals waiting, and closing the window without approval rules quits Paydesk', async () => {
  const app = await electron.launch({ executablePath: binary, args: [appRoot] })
  const window = await app.firstWindow()
  await expect(window.getByTestId('profile-bar')).toBeVisible()
  // The badge is only kept where the OS shows one (macOS, Linux launchers); elsewhere it reads 0 too.
  expect(await app.evaluate(({ app: electronApp }) => electronApp.getBadgeCount())).toBe(0)
  const closed = new Promise<void>((resolve) => app.process().once('exit', () => resolve()))
  // Closing as the window's close button does: through BrowserWindow.close, which runs Paydesk's close policy.
  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close())
  await closed
})
