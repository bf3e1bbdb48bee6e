import { expect, test, type Page } from '../support/browser-mode'
import { SANDBOX_CREDENTIALS, startStandaloneSandbox } from '../support/standalone-sandbox'

const nav = (page: Page, section: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${section}`) }).click()

test('with the service gone, cached views keep working with "as of", and writes fail plainly with nothing queued', async ({ page, app, shot }) => {
  const sandbox = await startStandaloneSandbox()
  try {
    await page.goto(app.url)
    await nav(page, 'Settings')
    await page.getByLabel('Name').fill('Team sandbox')
    await page.getByLabel('Base URL').fill(sandbox.baseUrl)
    await page.getByLabel('API token id').fill(SANDBOX_CREDENTIALS.tokenId)
    await page.getByLabel('API client secret').fill(SANDBOX_CREDENTIALS.clientSecret)
    await page.getByRole('button', { name: 'Add profile' }).click()
    await page.getByRole('row', { name: /Team sandbox/ }).getByRole('button', { name: 'Switch to' }).click()
    await expect(page.getByTestId('environment-chip')).toHaveText('Sandbox')

    await nav(page, 'Transactions')
    const meta = page.locator('.list-meta').first()
    await expect(meta).toContainText(/[1-9][\d,]* transactions/, { timeout: 20_000 })
    const cachedCount = (await meta.locator('span').first().textContent()) ?? ''

    // The connection is lost.
    const exited = new Promise((r) => sandbox.process.once('exit', r))
    sandbox.process.kill('SIGKILL')
    await exited

    await expect(page.getByRole('status').filter({ hasText: /^\s*Offline since/ })).toBeVisible({ timeout: 30_000 })
    await expect(meta).toContainText('Offline · as of')
    await expect(meta.locator('span').first()).toHaveText(cachedCount)
    await page.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1).click()
    await expect(page.getByTestId('transaction-detail')).toBeVisible()
    await shot('offline-cached-transactions')

    // A write says it could not be done and that nothing waits to be sent later.
    await nav(page, 'Sandbox tools')
    const fund = page.getByRole('form', { name: 'Fund an internal account' })
    await fund.getByLabel('Amount to add').fill('10')
    await fund.getByRole('button', { name: /^Add \$10\.00/ }).click()
    await expect(fund.getByRole('alert')).toContainText(/offline/i)
    await expect(fund.getByRole('alert')).toContainText(/nothing was queued/i)
    await shot('offline-write-refused')
  } finally {
    sandbox.stop()
  }
})
