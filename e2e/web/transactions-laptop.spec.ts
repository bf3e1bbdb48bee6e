import { expect, nav, test, type Page } from '../support/browser-mode'
import { allTransactions, countMatches, inFilters, money, openTransactions, type Tx } from '../support/transactions'

// The transactions workbench on a laptop's screen (1280×720) in browser mode against the Local sandbox: the filter bar,
// the rows in sight, the detail over the list, totals and saved views.

/** Rows of the list wholly inside its scroll area: what an operator sees without scrolling. */
async function rowsInSight(page: Page): Promise<number> {
  const area = (await page.locator('.windowed').first().boundingBox())!
  let n = 0
  for (const row of await page.getByRole('table', { name: 'Transactions' }).locator('tbody tr[aria-rowindex]').all()) {
    const box = await row.boundingBox()
    if (box && box.y >= area.y && box.y + box.height <= area.y + area.height + 0.5) n++
  }
  return n
}

test.describe('on a 1280×720 laptop', () => {
  test.use({ viewport: { width: 1280, height: 720 } })

  test('the filter bar is one line and the list shows at least 12 rows; the filter popover closes on Esc and on an outside click', async ({
    page,
    app,
    shot
  }) => {
    await openTransactions(page, app.url)
    const filterButton = page.getByRole('button', { name: /^\+ Filter/ })
    await expect(filterButton).toBeVisible()
    const search = page.getByLabel('Filter transactions')
    // Search, + Filter, saved views and export on one line.
    const [a, b] = [(await search.boundingBox())!, (await filterButton.boundingBox())!]
    expect(Math.abs(a.y + a.height / 2 - (b.y + b.height / 2))).toBeLessThan(12)
    // Room for at least 12 rows under the bar (the Local sandbox may hold fewer), and every row it has up to that.
    const room = async () => {
      const area = (await page.locator('.windowed').first().boundingBox())!
      const head = (await page.getByRole('table', { name: 'Transactions' }).locator('thead').boundingBox())!
      return Math.floor((area.height - head.height) / 34)
    }
    const total = Number(((await page.locator('.list-meta').first().textContent()) ?? '').replace(/[^\d].*$/s, ''))
    expect(await room()).toBeGreaterThanOrEqual(12)
    expect(await rowsInSight(page)).toBeGreaterThanOrEqual(Math.min(12, total))
    await shot('workbench-1280-list')

    // With a chip set the list still shows at least 12 rows.
    await inFilters(page, () => page.getByLabel('Direction').selectOption('OUTGOING'))
    await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Type: Outgoing')
    expect(await room()).toBeGreaterThanOrEqual(12)

    const popover = page.getByRole('dialog', { name: 'Filters' })
    await filterButton.click()
    await expect(popover).toBeVisible()
    await shot('workbench-1280-filter-popover')
    await page.keyboard.press('Escape')
    await expect(popover).toBeHidden()
    // An outside click closes it, and that click reaches what it was on: the search box takes the typing.
    await filterButton.click()
    await expect(popover).toBeVisible()
    await search.click()
    await expect(popover).toBeHidden()
    await page.keyboard.type('zzzq')
    await expect(search).toHaveValue('zzzq')
    await search.fill('')
    await page.getByRole('button', { name: /^Remove filter Type/ }).click()
    await expect(page.getByRole('list', { name: 'Active filters' })).toHaveCount(0)
  })

  test('the detail lies over the list with its close button, and closing it shows every column again', async ({
    page,
    app,
    shot
  }) => {
    await openTransactions(page, app.url)
    const table = page.getByRole('table', { name: 'Transactions' })
    const lastHeader = table.locator('thead th').last()
    await expect(lastHeader).toHaveText('Transaction')
    const inView = async () => {
      const box = (await lastHeader.boundingBox())!
      return box.x >= 0 && box.x + box.width <= 1280
    }
    expect(await inView()).toBe(true)

    await table.locator('tbody tr[aria-rowindex]').first().click()
    const detail = page.getByTestId('transaction-detail')
    await expect(detail).toBeVisible()
    const pane = (await page.getByRole('complementary', { name: 'Transaction detail' }).boundingBox())!
    const header = (await lastHeader.boundingBox())!
    const close = page.getByRole('button', { name: 'Esc: close detail' })
    if (header.x + header.width > pane.x) {
      // Overlaid: the close control is on screen, inside the pane.
      const box = (await close.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(pane.x)
      expect(box.x + box.width).toBeLessThanOrEqual(1280)
    }
    // The list keeps its full width under the overlay: no column was pushed off the screen.
    expect(await inView()).toBe(true)
    await shot('workbench-1280-detail')
    await close.click()
    await expect(detail).toBeHidden()
    await expect(page.getByRole('complementary', { name: 'Transaction detail' })).toBeHidden()
    expect(await inView()).toBe(true)
  })

  test('totals per currency of every filtered transaction, and an amount search', async ({ page, app, shot }) => {
    await openTransactions(page, app.url)
    await inFilters(page, () => page.getByLabel('Direction').selectOption('OUTGOING'))
    const totals = page.getByRole('list', { name: 'Totals per currency' })
    // The sandbox keeps receiving payments: compared with a fresh read until both saw the same set.
    let last = ''
    await expect
      .poll(
        async () => {
          const outgoing = (await allTransactions(app)).filter((t) => t.type === 'OUTGOING')
          const byCurrency = new Map<string, { count: number; amount: number }>()
          for (const t of outgoing) {
            const m = money(t)!
            const sum = byCurrency.get(m.currency.code) ?? { count: 0, amount: 0 }
            byCurrency.set(m.currency.code, { count: sum.count + 1, amount: sum.amount + m.amount })
          }
          const shown = ((await totals.textContent({ timeout: 1000 }).catch(() => '')) ?? '').replace(/,/g, '')
          last = shown
          const ok = [...byCurrency.entries()].every(
            ([code, t]) =>
              shown.includes(`${t.count} transaction`) &&
              shown.includes(code) &&
              shown.replace(/[^\d\s]/g, '').includes(String(t.amount))
          )
          return ok && byCurrency.size > 0 ? 'matches' : last
        },
        { timeout: 20_000 }
      )
      .toBe('matches')
    await shot('workbench-1280-totals')
    await page.getByRole('button', { name: /^Remove filter Type/ }).click()

    // "1250"-style: an amount as typed finds that amount in any currency (the list's own formatting, too).
    const all = await allTransactions(app)
    const target = all.find((t) => money(t) && money(t)!.amount >= 100_000 && money(t)!.amount % 100 === 0)!
    const minor = money(target)!.amount
    const whole = String(minor / 100)
    const matches = (t: Tx) => {
      const m = money(t)
      if (!m) return false
      const decimals = (m.currency as { decimals?: number }).decimals ?? 2
      return decimals >= 0 && m.amount === (minor / 100) * 10 ** decimals
    }
    const search = page.getByLabel('Filter transactions')
    await search.fill(whole)
    await countMatches(page, app, matches)
    await expect(page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first()).toContainText(
      Number(whole).toLocaleString('en-US')
    )
    await shot('workbench-1280-amount-search')
    await search.fill(`${Number(whole).toLocaleString('en-US')}.00`)
    await countMatches(page, app, matches)
    await search.fill('')
  })

  test('a saved view brings its filters and sort back, after a reload too, and can be deleted', async ({
    page,
    app,
    shot
  }) => {
    await openTransactions(page, app.url)
    const chips = page.getByRole('list', { name: 'Active filters' })
    await inFilters(page, () => page.getByLabel('Direction').selectOption('OUTGOING'))
    await page
      .getByRole('columnheader', { name: /^Created/ })
      .getByRole('button')
      .click()
    await page.getByRole('button', { name: 'Save view' }).click()
    await page.getByLabel('View name').fill('Outgoing, oldest first')
    await page.getByRole('button', { name: 'Save the current filters and sort' }).click()
    await expect(page.getByRole('dialog', { name: 'Save view' })).toBeHidden()
    const picker = page.getByLabel('Saved views')
    await expect(picker).toHaveValue('Outgoing, oldest first')

    await page.getByRole('button', { name: /^Remove filter Type/ }).click()
    await page
      .getByRole('columnheader', { name: /^Created/ })
      .getByRole('button')
      .click()
    await expect(picker).toHaveValue('')
    await picker.selectOption('Outgoing, oldest first')
    await expect(chips).toContainText('Type: Outgoing')
    await expect(page.getByRole('columnheader', { name: /^Created/ })).toHaveAttribute('aria-sort', 'ascending')
    await shot('workbench-1280-saved-view')

    // Kept by main for the profile: a reload finds it.
    await page.reload()
    await nav(page, 'Transactions')
    await expect(page.getByLabel('Saved views').locator('option', { hasText: 'Outgoing, oldest first' })).toHaveCount(1)
    await page.getByLabel('Saved views').selectOption('Outgoing, oldest first')
    await page.getByRole('button', { name: 'Delete view Outgoing, oldest first' }).click()
    await expect(page.getByLabel('Saved views').locator('option', { hasText: 'Outgoing, oldest first' })).toHaveCount(0)
  })
})
