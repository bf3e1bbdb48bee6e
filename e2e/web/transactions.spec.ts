import { expect, test } from '../support/browser-mode'

test('transactions list from the cache, filter by status, and open a detail with a sentence for the failure', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  await page.keyboard.press('g')
  await page.keyboard.press('t')
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible()
  await expect(page.locator('.list-meta').first()).toContainText(/[1-9][\d,]* transactions/, { timeout: 15_000 })

  await page.locator('.status-picker summary').click()
  await page.getByRole('checkbox', { name: 'FAILED', exact: true }).check()
  await page.locator('.status-picker summary').click()
  const table = page.getByRole('table', { name: 'Transactions' })
  await expect(table.getByRole('row').nth(1)).toContainText('FAILED')
  const statuses = await table.locator('tbody tr .chip').allTextContents()
  expect(statuses.every((s) => s === 'FAILED')).toBe(true)

  await page.keyboard.press('j')
  await expect(page.getByTestId('transaction-detail')).toBeVisible()
  await expect(page.getByTestId('transaction-detail').locator('.result-bad code')).toHaveText(/[A-Z_]+/)
  await shot('transactions-failed-detail')

  // Filters survive leaving and coming back.
  await page.getByRole('button', { name: /^Home/ }).click()
  await page.getByRole('button', { name: /^Transactions/ }).click()
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Status: FAILED')
})
