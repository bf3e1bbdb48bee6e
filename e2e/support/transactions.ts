import type { Locator } from '@playwright/test'
import { FIRST_SYNC_MS, chord, expect, invoke, nav, type Page } from './browser-mode'

// The transactions list as the workbench specs read it: every transaction through the bridge, the list's count against
// a filter of those, and the filter popover.

export interface Tx {
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
/**
 * The tail of a transaction id to search by. A needle of digits alone reads as an amount (amount search), so an id
 * whose last 8 characters are digits is searched by its last group with its dash, which never does.
 */
export const idNeedle = (id: string): string => (/^\d+$/.test(id.slice(-8)) ? id.slice(-13) : id.slice(-8))

export const money = (t: Tx) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount)

export async function allTransactions(app: Parameters<typeof invoke>[0]): Promise<Tx[]> {
  const out: Tx[] = []
  for (let offset = 0; ; offset += 500) {
    const page = (await invoke(app, 'transactions.query', { offset, limit: 500 })) as { rows: Tx[]; total: number }
    out.push(...page.rows)
    if (out.length >= page.total || page.rows.length === 0) return out
  }
}

export async function openTransactions(page: Page, url: string) {
  await page.goto(url)
  await nav(page, 'Transactions')
  await expect(page.locator('.list-meta').first()).toContainText(/[1-9][\d,]* transactions/, { timeout: FIRST_SYNC_MS })
}

/**
 * Opens the list by its shortcut, with the clipboard allowed (these specs copy an id and read it back), once it counts
 * its first transactions; the table.
 */
export async function openTransactionsToCopy(page: Page, url: string): Promise<Locator> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin })
  await page.goto(url)
  await chord(page, 't')
  await expect(page.locator('.list-meta').first()).toContainText(/[1-9][\d,]* transactions/, { timeout: FIRST_SYNC_MS })
  return page.getByRole('table', { name: 'Transactions' })
}

/**
 * The list's count equals what a filter keeps of the sandbox's transactions read afresh: the Local sandbox keeps
 * receiving payments, so the check is repeated until both were read between two arrivals.
 */
export async function countMatches(page: Page, app: Parameters<typeof invoke>[0], keep: (t: Tx) => boolean) {
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
export async function inFilters(page: Page, fill: () => Promise<unknown>) {
  await page.getByRole('button', { name: /^\+ Filter/ }).click()
  await expect(page.getByRole('dialog', { name: 'Filters' })).toBeVisible()
  await fill()
  await page.getByRole('heading', { name: 'Transactions', level: 1 }).click()
  await expect(page.getByRole('dialog', { name: 'Filters' })).toBeHidden()
}

export const mostCommon = (values: (string | undefined)[]): string => {
  const counts = new Map<string, number>()
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
}
