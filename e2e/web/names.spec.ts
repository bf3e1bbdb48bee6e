import { FIRST_SYNC_MS, expect, test } from '../support/browser-mode'
import { openTransactionsToCopy } from '../support/transactions'

test('transactions name their customers and accounts: list, search by name, detail, and the id one click away', async ({
  page,
  app,
  shot
}) => {
  const table = await openTransactionsToCopy(page, app.url)
  // The demo's customers are read in the background as the list opens; their names then replace the ids.
  await expect(table.locator('.named', { hasText: 'Jane Smith' }).first()).toBeVisible({ timeout: FIRST_SYNC_MS })

  // "jane" finds her transactions by her name: no id or description of theirs says so.
  await page.getByLabel('Filter transactions').fill('jane')
  const customers = table.locator('tbody tr td:nth-child(4)')
  // Held until the search's answer is drawn: the unfiltered rows stay on screen until then, Jane's among them.
  await expect
    .poll(async () => {
      const names = await customers.allTextContents()
      return names.length > 0 && names.every((n) => n.includes('Jane Smith'))
    })
    .toBe(true)
  await shot('names-list-search')

  // The detail names her, and the accounts the money moved between.
  await table.locator('tbody tr').first().locator('td').first().click()
  const detail = page.getByTestId('transaction-detail')
  await expect(detail).toBeVisible()
  await expect(detail.locator('dd .named').first()).toContainText('Jane Smith')
  await expect(detail.locator('dd .named', { hasText: ' · ' }).first()).toBeVisible()
  await shot('names-detail')

  // Her id is one click away: the copy button beside her name.
  const named = table.locator('tbody tr').first().locator('.named').first()
  const id = await named.getAttribute('data-paydesk-id')
  expect(id).toMatch(/^Customer:/)
  await named.getByRole('button', { name: `Copy ${id}` }).click()
  // Read in the page (a string: this file is type-checked without the DOM's types).
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(id)
})
