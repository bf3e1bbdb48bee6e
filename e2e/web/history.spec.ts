import { expect, FIRST_SYNC_MS, nav, type Page, test } from '../support/browser-mode'
import { openSendMoney, payJaneFromPlatformUsd } from '../support/send-money'
import { idNeedle } from '../support/transactions'

// History (issue 31): a transaction's status timeline as Paydesk saw it, and the log of manual actions with the reason
// the operator gave. Each step waits on what the page shows, never on time.

test.describe.configure({ timeout: FIRST_SYNC_MS + 90_000 })
test.beforeEach(() => test.setTimeout(FIRST_SYNC_MS + 90_000))

async function sendSeven(page: Page): Promise<string> {
  await nav(page, 'Internal accounts')
  const pane = await openSendMoney(page)
  await payJaneFromPlatformUsd(pane)
  await pane.getByLabel('Amount').fill('7')
  await pane.getByRole('button', { name: 'Review payment' }).click()
  await pane
    .getByRole('group', { name: 'Review payment' })
    .getByRole('button', { name: /^Send \$7\.00/ })
    .click()
  const done = pane.getByRole('status', { name: 'Payment sent' })
  const id = await done.locator('[data-paydesk-id^="Transaction:"]').first().getAttribute('data-paydesk-id')
  expect(id).toMatch(/^Transaction:/)
  // The Local sandbox moves the transfer on by itself; the toast says when Paydesk saw it end.
  await expect(page.locator('.toast', { hasText: 'Transfer completed' }).first()).toBeVisible({
    timeout: FIRST_SYNC_MS
  })
  return id!
}

test('a sent transfer’s detail shows each status Paydesk saw it in, ending with Completed', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  const id = await sendSeven(page)

  await nav(page, 'Transactions')
  await page.getByLabel('Filter transactions').fill(idNeedle(id))
  // The search's own answer first: the unfiltered rows on screen are drawn again in place when it arrives, and a click
  // on one of them then lands on a row that holds another transaction, or none.
  const table = page.getByRole('table', { name: 'Transactions' })
  await expect(table.locator('tbody tr')).toHaveCount(1, { timeout: FIRST_SYNC_MS })
  await table.locator(`tbody tr:has([data-paydesk-id="${id}"])`).click()
  const detail = page.getByTestId('transaction-detail')
  const timeline = detail.getByRole('region', { name: 'Status history' })
  const steps = timeline.getByRole('listitem')
  // Created by the send's own answer (not yet final), then the sync saw it complete: at least two steps.
  await expect(steps.last()).toContainText('Completed', { timeout: FIRST_SYNC_MS })
  expect(await steps.count()).toBeGreaterThanOrEqual(2)
  await expect(steps.first()).not.toContainText('Completed')
  await expect(steps.last()).toHaveAttribute('aria-current', 'step')
  await expect(timeline).toContainText('As Paydesk saw it')
  await expect(steps.last().locator('time')).toHaveText(/^(at the service|seen by Paydesk) /)
  await timeline.scrollIntoViewIfNeeded()
  await shot('history-status-timeline')
})

test('an edit with a reason is in History, named, with its outcome, and still there after a reload', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  await nav(page, 'External accounts')
  const row = page.getByRole('table', { name: 'External accounts' }).getByRole('row', { name: /Jane Smith.*…9012/ })
  await expect(row).toBeVisible({ timeout: FIRST_SYNC_MS })
  await row.click()
  const detail = page.getByTestId('external-account-detail')
  await detail.getByRole('button', { name: 'Edit…' }).click()
  const form = detail.getByRole('form', { name: 'Edit account' })
  await form.getByLabel('Platform account id').fill('ledger-jane-7')
  await form.getByLabel('Reason (optional)').fill('Ledger renumbered, ticket 4711')
  await form.getByRole('button', { name: 'Save changes', exact: true }).click()
  await expect(detail.getByText('ledger-jane-7')).toBeVisible()

  await nav(page, 'History')
  const entry = page.getByTestId('action-entry').first()
  await expect(entry).toContainText('Edited Jane Smith · US bank …9012: your own account id')
  await expect(entry).toContainText('Done')
  await expect(entry).toContainText('Ledger renumbered, ticket 4711')
  await expect(entry.getByRole('button', { name: /^Copy ExternalAccount:/ })).toBeVisible()
  await shot('history-action-log')

  await page.reload()
  await nav(page, 'History')
  await expect(page.getByTestId('action-entry').first()).toContainText('Ledger renumbered, ticket 4711')
  // Filtered by kind: an edit is not an approval.
  await page.getByLabel('Show').selectOption({ label: 'Approvals' })
  await expect(page.getByTestId('action-entry')).toHaveCount(0)
  await page.getByLabel('Show').selectOption({ label: 'External accounts' })
  await expect(page.getByTestId('action-entry').first()).toContainText('ticket 4711')
})
