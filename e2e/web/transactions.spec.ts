import { expect, invoke, test } from '../support/browser-mode'

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

test('the search starts at three characters: two keep the list and say so, three filter it', async ({ page, app }) => {
  await page.goto(app.url)
  await page.keyboard.press('g')
  await page.keyboard.press('t')
  const meta = page.locator('.list-meta').first()
  await expect(meta).toContainText(/[1-9][\d,]* transactions/, { timeout: 15_000 })
  const newest = (await invoke(app, 'transactions.query', { limit: 1 })) as { rows: { id: string }[] }
  const firstId = newest.rows[0]?.id ?? ''
  expect(firstId).toMatch(/^Transaction:/)
  const before = (await meta.textContent()) ?? ''
  const box = page.getByLabel('Filter transactions')
  const hint = page.getByText('Type 3 or more characters to search')

  const needle = firstId.slice(-8)
  await box.pressSequentially(needle.slice(0, 2))
  await expect(hint).toBeVisible()
  await expect(box).toHaveAccessibleDescription('Type 3 or more characters to search')
  await expect(meta).toHaveText(before)

  // The id's last eight characters are its own: one match.
  await box.fill(needle)
  await expect(hint).toBeHidden()
  await expect(meta.locator('span').first()).toHaveText(/^1 transactions?$/)
  await expect(page.getByRole('table', { name: 'Transactions' }).locator('tbody tr')).toHaveCount(1)
})
