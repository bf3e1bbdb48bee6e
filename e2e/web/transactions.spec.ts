import { FIRST_SYNC_MS, chord, expect, invoke, test } from '../support/browser-mode'
import { idNeedle, openTransactionsToCopy } from '../support/transactions'

test('transactions list from the cache, filter by status, and open a detail with a sentence for the failure', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  await chord(page, 't')
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible()
  await expect(page.locator('.list-meta').first()).toContainText(/[1-9][\d,]* transactions/, { timeout: FIRST_SYNC_MS })

  await page.getByRole('button', { name: /^\+ Filter/ }).click()
  await page.getByRole('checkbox', { name: 'FAILED', exact: true }).check()
  await page.keyboard.press('Escape')
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
  await chord(page, 't')
  const meta = page.locator('.list-meta').first()
  await expect(meta).toContainText(/[1-9][\d,]* transactions/, { timeout: FIRST_SYNC_MS })
  const newest = (await invoke(app, 'transactions.query', { limit: 1 })) as { rows: { id: string }[] }
  const firstId = newest.rows[0]?.id ?? ''
  expect(firstId).toMatch(/^Transaction:/)
  const before = (await meta.textContent()) ?? ''
  const box = page.getByLabel('Filter transactions')
  const hint = page.getByText('Type 3 or more characters to search')

  const needle = idNeedle(firstId)
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

test('a new answer redraws the rows on screen: the selection and a copied id stay with their transaction', async ({
  page,
  app
}) => {
  const table = await openTransactionsToCopy(page, app.url)
  const row = (position: number) => table.locator(`tbody tr[aria-rowindex="${position}"]`)
  const idIn = async (position: number) =>
    (await row(position).locator('[data-paydesk-id^="Transaction:"]').getAttribute('data-paydesk-id')) ?? ''
  const first = await idIn(1)
  const second = await idIn(2)
  expect(second).not.toBe(first)
  const detailId = page.getByTestId('transaction-detail').locator('h2 [data-paydesk-id]')

  await row(2).locator('td').first().click()
  await expect(detailId).toHaveAttribute('data-paydesk-id', second)
  await expect(row(2)).toHaveAttribute('aria-selected', 'true')
  await expect(row(1)).toHaveAttribute('aria-selected', 'false')
  // From the keyboard: the open detail lies over the list's right side at this size, the ids column included.
  const copyFirst = row(1).getByRole('button', { name: `Copy ${first}` })
  await copyFirst.press('Enter')
  await expect(copyFirst).toHaveClass(/copied/)

  // The second transaction alone: it is drawn in the first row, which showed the first one a moment ago.
  await page.getByLabel('Filter transactions').fill(idNeedle(second))
  await expect(table.locator('tbody tr')).toHaveCount(1)
  await expect(row(1).locator(`[data-paydesk-id="${second}"]`)).toHaveCount(1)
  // Read once, not awaited: the first id's tick fades after 1.2 s, and a retrying assertion would wait for that.
  expect(
    await row(1)
      .getByRole('button', { name: `Copy ${second}` })
      .getAttribute('class')
  ).toBe('copy')
  await expect(row(1)).toHaveAttribute('aria-selected', 'true')

  // Back to the whole list: the selection is where its transaction is, and a click opens the row it lands on.
  await page.getByLabel('Filter transactions').fill('')
  await expect(row(2).locator(`[data-paydesk-id="${second}"]`)).toHaveCount(1)
  await expect(row(2)).toHaveAttribute('aria-selected', 'true')
  await expect(row(1)).toHaveAttribute('aria-selected', 'false')
  await row(1).locator('td').first().click()
  await expect(detailId).toHaveAttribute('data-paydesk-id', first)
})
