import { FIRST_SYNC_MS, expect, nav, test } from '../support/browser-mode'
import { withStandaloneProfile } from '../support/standalone-sandbox'

test('with the service gone, cached views keep working with "as of", and writes fail plainly with nothing queued', async ({
  page,
  app,
  shot
}) => {
  await withStandaloneProfile(page, app.url, { name: 'Team sandbox' }, async (sandbox) => {
    await nav(page, 'Transactions')
    const meta = page.locator('.list-meta').first()
    await expect(meta).toContainText(/[1-9][\d,]* transactions/, { timeout: FIRST_SYNC_MS })
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
  })
})
