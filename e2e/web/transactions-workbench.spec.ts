import { readFile } from 'node:fs/promises'
import { parse } from 'csv-parse/sync'
import { expect, nav, test } from '../support/browser-mode'
import {
  allTransactions,
  countMatches,
  inFilters,
  money,
  mostCommon,
  openTransactions,
  type Tx
} from '../support/transactions'

// The transactions workbench in browser mode against the Local sandbox: each filter of spec 4.9 (plus currency and an
// amount range) and the date range, checked against the full list read once through the bridge; then a filtered
// export, downloaded and compared row by row with the list. How it fits a laptop's screen: transactions-laptop.spec.ts.

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
  // The text filters: each keeps the rows whose field is the value typed (the most common one, so some rows stay).
  const textFilters: Array<[name: string, label: string, field: (t: Tx) => string | undefined, chip: RegExp]> = [
    ['customer', 'Customer', (t) => t.customerId, /^Customer: /],
    ['platform-customer', 'Platform customer id', (t) => t.platformCustomerId, /^Platform customer: /],
    ['sender', 'Sender account', (t) => t.source?.accountId, /^Sender account: /],
    ['receiver', 'Receiver account', (t) => t.destination?.accountId, /^Receiver account: /],
    ['reference', 'Reference', (t) => t.reconciliationInstructions?.reference, /^Reference: /]
  ]
  for (const [name, label, field, chip] of textFilters) {
    const value = mostCommon(all.map(field))
    await check(
      name,
      () => page.getByLabel(label, { exact: true }).fill(value),
      (t) => field(t) === value,
      chip
    )
  }
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
