import { readFile } from 'node:fs/promises'
import { parse } from 'csv-parse/sync'
import { FIRST_SYNC_MS, expect, invoke, nav, test, type Page } from '../support/browser-mode'

// The transactions workbench in browser mode against the Local sandbox: each filter of spec 4.9 (plus currency and an
// amount range) and the date range, checked against the full list read once through the bridge; then a filtered
// export, downloaded and compared row by row with the list.

interface Tx {
  id: string
  status: string
  type: string
  customerId: string
  platformCustomerId: string
  createdAt: string
  source?: { accountId?: string }
  destination?: { accountId?: string }
  reconciliationInstructions?: { reference?: string }
  sentAmount?: { amount: number; currency: { code: string } }
  receivedAmount?: { amount: number; currency: { code: string } }
}
const money = (t: Tx) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount)

async function allTransactions(app: Parameters<typeof invoke>[0]): Promise<Tx[]> {
  const out: Tx[] = []
  for (let offset = 0; ; offset += 500) {
    const page = (await invoke(app, 'transactions.query', { offset, limit: 500 })) as { rows: Tx[]; total: number }
    out.push(...page.rows)
    if (out.length >= page.total || page.rows.length === 0) return out
  }
}

async function openTransactions(page: Page, url: string) {
  await page.goto(url)
  await nav(page, 'Transactions')
  await expect(page.locator('.list-meta').first()).toContainText(/[1-9][\d,]* transactions/, { timeout: FIRST_SYNC_MS })
}

/**
 * The list's count equals what a filter keeps of the sandbox's transactions read afresh: the Local sandbox keeps
 * receiving payments, so the check is repeated until both were read between two arrivals.
 */
async function countMatches(page: Page, app: Parameters<typeof invoke>[0], keep: (t: Tx) => boolean) {
  let last = ''
  await expect
    .poll(
      async () => {
        const expected = (await allTransactions(app)).filter(keep).length
        const shown = ((await page.locator('.list-meta').first().textContent()) ?? '').replace(/,/g, '')
        last = `${expected} expected, the list says "${shown}"`
        return expected > 0 && shown.startsWith(`${expected} transaction`) ? 'matches' : last
      },
      { timeout: 15_000 }
    )
    .toBe('matches')
}

/**
 * Opens "+ Filter", runs `fill` on its fields, and closes it with a click outside (the page's heading): Esc in a
 * search field clears that field first, as browsers do.
 */
async function inFilters(page: Page, fill: () => Promise<unknown>) {
  await page.getByRole('button', { name: /^\+ Filter/ }).click()
  await expect(page.getByRole('dialog', { name: 'Filters' })).toBeVisible()
  await fill()
  await page.getByRole('heading', { name: 'Transactions', level: 1 }).click()
  await expect(page.getByRole('dialog', { name: 'Filters' })).toBeHidden()
}

const mostCommon = (values: (string | undefined)[]): string => {
  const counts = new Map<string, number>()
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
}

test('each filter, the date range and the sort, shown as removable chips that survive navigation', async ({
  page,
  app,
  shot
}) => {
  await openTransactions(page, app.url)
  const all = await allTransactions(app)
  const chips = page.getByRole('list', { name: 'Active filters' })

  const check = async (
    name: string,
    apply: () => Promise<unknown>,
    keep: (t: Tx) => boolean,
    chip: RegExp,
    restored: (t: Tx) => boolean = () => true
  ) => {
    await inFilters(page, apply)
    await countMatches(page, app, keep)
    await expect(chips.getByText(chip)).toBeVisible()
    await shot(`workbench-${name}`)
    await page.getByRole('button', { name: new RegExp(`^Remove filter ${chip.source.replace(/^\^/, '')}`) }).click()
    await countMatches(page, app, restored)
  }

  const status = mostCommon(all.map((t) => t.status))
  const second = mostCommon(all.filter((t) => t.status !== status).map((t) => t.status))
  await check(
    'status',
    async () => {
      await page.getByRole('checkbox', { name: status, exact: true }).check()
      await page.getByRole('checkbox', { name: second, exact: true }).check()
    },
    (t) => t.status === status || t.status === second,
    /^Status: /
  )
  await check(
    'type',
    () => page.getByLabel('Direction').selectOption('OUTGOING'),
    (t) => t.type === 'OUTGOING',
    /^Type: Outgoing/
  )
  const customer = mostCommon(all.map((t) => t.customerId))
  await check(
    'customer',
    () => page.getByLabel('Customer', { exact: true }).fill(customer),
    (t) => t.customerId === customer,
    /^Customer: /
  )
  const platformCustomer = mostCommon(all.map((t) => t.platformCustomerId))
  await check(
    'platform-customer',
    () => page.getByLabel('Platform customer id').fill(platformCustomer),
    (t) => t.platformCustomerId === platformCustomer,
    /^Platform customer: /
  )
  const sender = mostCommon(all.map((t) => t.source?.accountId))
  await check(
    'sender',
    () => page.getByLabel('Sender account').fill(sender),
    (t) => t.source?.accountId === sender,
    /^Sender account: /
  )
  const receiver = mostCommon(all.map((t) => t.destination?.accountId))
  await check(
    'receiver',
    () => page.getByLabel('Receiver account').fill(receiver),
    (t) => t.destination?.accountId === receiver,
    /^Receiver account: /
  )
  const reference = mostCommon(all.map((t) => t.reconciliationInstructions?.reference))
  await check(
    'reference',
    () => page.getByLabel('Reference').fill(reference),
    (t) => t.reconciliationInstructions?.reference === reference,
    /^Reference: /
  )
  const currency = mostCommon(all.map((t) => money(t)?.currency.code))
  await check(
    'currency',
    () => page.getByRole('dialog', { name: 'Filters' }).getByLabel('Currency').selectOption(currency),
    (t) => money(t)?.currency.code === currency,
    /^Currency: /
  )
  // An amount range in that currency: from 10.00 to 500.00 (minor units 1000 to 50000, 2-decimal currencies).
  await inFilters(page, () =>
    page.getByRole('dialog', { name: 'Filters' }).getByLabel('Currency').selectOption(currency)
  )
  await check(
    'amount',
    async () => {
      await page.getByLabel('Amount from').fill('10')
      await page.getByLabel('Amount to').fill('500.00')
    },
    (t) => money(t)?.currency.code === currency && money(t)!.amount >= 1000 && money(t)!.amount <= 50_000,
    /^Amount: /,
    (t) => money(t)?.currency.code === currency
  )
  await page.getByRole('button', { name: /^Remove filter Currency/ }).click()

  // Date range: presets and a custom range, in the browser's zone (named on the control and the chip).
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
  await inFilters(page, () => expect(page.getByText(`Created (${zone})`)).toBeVisible())
  const now = Date.now()
  await check(
    'last-30-days',
    () => page.getByLabel(/^Created/).selectOption('30d'),
    (t) => Date.parse(t.createdAt) >= now - 30 * 86_400_000,
    /^Created: Last 30 days/
  )
  const days = [...new Set(all.map((t) => t.createdAt.slice(0, 10)))].sort()
  const from = days[Math.floor(days.length / 3)]!
  const to = days[Math.floor((2 * days.length) / 3)]!
  const localDay = (iso: string) => {
    const d = new Date(iso)
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
  }
  await check(
    'custom-range',
    async () => {
      await page.getByLabel(/^Created/).selectOption('custom')
      await page.getByLabel('From', { exact: true }).fill(from)
      await page.getByLabel('To', { exact: true }).fill(to)
    },
    // The test runs in the same zone as the page (one machine): its local days are the page's.
    (t) => localDay(t.createdAt) >= from && localDay(t.createdAt) <= to,
    /^Created: /
  )

  // Sort by amount, largest first, from the Amount header: within the one currency filtered (amounts in different
  // currencies have no order); without one the header says why it does not sort.
  const amountHeader = page.getByRole('columnheader', { name: /^Amount/ })
  await expect(amountHeader).toHaveAttribute('title', 'Filter one currency to sort by amount')
  await expect(amountHeader.getByRole('button')).toHaveCount(0)
  await inFilters(page, () =>
    page.getByRole('dialog', { name: 'Filters' }).getByLabel('Currency').selectOption(currency)
  )
  await amountHeader.getByRole('button').click()
  await expect(amountHeader).toHaveAttribute('aria-sort', 'descending')
  await expect(page.getByRole('columnheader', { name: /^Created/ })).toHaveAttribute('aria-sort', 'none')
  const largest = [...(await allTransactions(app))]
    .filter((t) => money(t)?.currency.code === currency)
    .sort((a, b) => money(b)!.amount - money(a)!.amount)[0]!
  await expect(
    page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first().locator('.mono').last()
  ).toHaveAttribute('title', largest.id)

  // Filters survive leaving and coming back.
  await inFilters(page, () => page.getByLabel('Direction').selectOption('INCOMING'))
  await nav(page, 'Home')
  await nav(page, 'Transactions')
  await expect(page.getByLabel('Direction')).toHaveValue('INCOMING')
  await expect(page.getByRole('columnheader', { name: /^Amount/ })).toHaveAttribute('aria-sort', 'descending')
  await expect(chips.getByText('Type: Incoming')).toBeVisible()
  await countMatches(page, app, (t) => t.type === 'INCOMING' && money(t)?.currency.code === currency)
})

test('export of a filtered set: the downloaded CSV is the list, row by row', async ({ page, app, shot }) => {
  await openTransactions(page, app.url)
  const all = await allTransactions(app)
  const status = mostCommon(all.map((t) => t.status))
  await inFilters(page, async () => {
    await page.getByLabel('Direction').selectOption('INCOMING')
    await page.getByRole('checkbox', { name: status, exact: true }).check()
  })
  // Oldest first, from the Created header (newest first, then flipped).
  await page
    .getByRole('columnheader', { name: /^Created/ })
    .getByRole('button')
    .click()
  await expect(page.getByRole('columnheader', { name: /^Created/ })).toHaveAttribute('aria-sort', 'ascending')
  await countMatches(page, app, (t) => t.type === 'INCOMING' && t.status === status)

  // What the list shows, every row (scrolled through: the list renders only what is on screen).
  const table = page.getByRole('table', { name: 'Transactions' })
  const shown = new Map<string, { index: number; status: string; amount: string }>()
  const scroller = page.locator('.windowed').first()
  const total = Number(((await page.locator('.list-meta').first().textContent()) ?? '').replace(/[^\d].*$/s, ''))
  for (let pass = 0; pass < 200 && shown.size < total; pass++) {
    for (const row of await table.locator('tbody tr[aria-rowindex]').all()) {
      const index = Number(await row.getAttribute('aria-rowindex'))
      const id = await row.locator('.mono').last().getAttribute('title')
      if (!id) continue
      shown.set(id, {
        index,
        status: (await row.locator('.chip').first().textContent()) ?? '',
        amount: ((await row.locator('td').nth(2).textContent()) ?? '').replace(/[^\d]/g, '')
      })
    }
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight))
  }
  const listRows = [...shown.entries()].sort((a, b) => a[1].index - b[1].index)
  expect(listRows).toHaveLength(total)

  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^paydesk-transactions-.*\.csv$/)
  const csv = await readFile((await download.path())!)
  await expect(page.getByRole('status').filter({ hasText: /Exported [\d,]+ transactions/ })).toBeVisible()
  await shot('workbench-export-done')

  const records = parse(csv, { columns: true, bom: true }) as Record<string, string>[]
  expect(records).toHaveLength(listRows.length)
  records.forEach((record, i) => {
    const [id, row] = listRows[i]!
    expect(record['id']).toBe(id)
    expect(record['status']).toBe(row.status)
    expect(record['type']).toBe('INCOMING')
    // The list's "$1,234.56 USD" and the CSV's "1234.56": the same digits.
    expect(record['received_amount']!.replace(/[^\d]/g, '')).toBe(row.amount)
    expect(record['received_currency']).toMatch(/^[A-Z0-9]{3,5}$/)
    expect(record['created_at_utc']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })
})

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
