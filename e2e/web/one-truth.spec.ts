import { formatMoney } from '../../src/shared/format/money'
import { expect, FIRST_SYNC_MS, invoke, nav, startBrowserMode, test, type Page } from '../support/browser-mode'
import { openLiveApprovals, receive, seedCustomer } from '../support/gate'
import { addProfileFor, startStandaloneSandbox, withStandaloneProfile } from '../support/standalone-sandbox'
import { openSendMoney, payJaneFromPlatformUsd } from '../support/send-money'

// One truth per thing: every count belongs to the profile it came from, and a payment has one live status that every
// surface (result panel, transfers row, Transactions, toast) shows alike at each step. Each step is held, never slept
// through: the prompt by a Local approval window far longer than the test, the payment by the sandbox's fault
// injection refusing every read of transactions, so Paydesk knows only what the service answered the send with.

// Each test starts its own sandbox beside Paydesk and follows several screens: more than the default minute.
test.describe.configure({ timeout: 150_000 })

/** The sidebar's Approvals badge (absent when nothing waits). */
const approvalsBadge = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: /^Approvals/ })
    .locator('.badge')

async function switchToProfile(page: Page, name: RegExp) {
  await nav(page, 'Settings')
  await page.getByRole('row', { name }).getByRole('button', { name: 'Switch to' }).click()
}

test('two profiles: the Local prompt counts on Local only, and each screen shows the active profile’s count', async ({
  page,
  shot
}) => {
  // The prompt stays open for ten minutes (test-only window): switching profiles back and forth never races its fallback.
  const app = await startBrowserMode({ approvalWindowMs: 600_000 })
  const sandbox = await startStandaloneSandbox()
  try {
    await openLiveApprovals(page, app)
    const jane = await seedCustomer(app, 'cust-jane-smith')
    const payment = await receive(app, jane.id, 4_321)
    await expect(page.locator(`[data-testid="prompt"] [data-paydesk-id="${payment.id}"]`).first()).toBeVisible({
      timeout: FIRST_SYNC_MS
    })
    await expect(page.getByRole('tab', { name: 'Waiting for you (1)' })).toBeVisible()
    await expect(approvalsBadge(page)).toHaveText('1')
    await nav(page, 'Home')
    await expect(page.getByTestId('home-approvals')).toContainText('1 incoming payment')
    await shot('one-truth-local-waiting')

    // A second profile, on its own sandbox with no approval gate: nothing waits there, on any screen.
    await addProfileFor(page, 'Team sandbox', sandbox.baseUrl)
    await nav(page, 'Home')
    await expect(page.getByTestId('home-approvals')).toContainText('The approval gate is holding nothing for you.')
    await expect(approvalsBadge(page)).toHaveCount(0)
    await nav(page, 'Approvals')
    await expect(page.getByTestId('no-gate')).toBeVisible({ timeout: FIRST_SYNC_MS })
    await expect(page.getByRole('tab', { name: /Waiting for you/ })).toHaveCount(0)
    await shot('one-truth-team-nothing-waiting')

    // Back on Local: its prompt is still there, and every count says so again.
    await switchToProfile(page, /Local sandbox/)
    await expect(approvalsBadge(page)).toHaveText('1', { timeout: FIRST_SYNC_MS })
    await nav(page, 'Approvals')
    await expect(page.getByRole('tab', { name: 'Waiting for you (1)' })).toBeVisible({ timeout: FIRST_SYNC_MS })
    await nav(page, 'Home')
    await expect(page.getByTestId('home-approvals')).toContainText('1 incoming payment')
    await shot('one-truth-local-again')
  } finally {
    sandbox.stop()
    await app.stop()
  }
})

test('a send: the review shows fee, total and balance after; every surface agrees on its status at each step', async ({
  page,
  app,
  shot
}) => {
  await withStandaloneProfile(page, app.url, { name: 'Team sandbox', args: ['--faults'] }, async (sandbox) => {
    await nav(page, 'Internal accounts')
    const pane = await openSendMoney(page)
    await payJaneFromPlatformUsd(pane)
    await pane.getByLabel('Amount').fill('1,250')
    await pane.getByRole('button', { name: 'Review payment' }).click()

    // The review: the service's fee on the latest USD transfer-out, what leaves the account, and what stays.
    const accounts = (await invoke(app, 'internalAccounts.list', { scope: 'platform' })) as {
      rows: Array<{ balance: { amount: number; currency: { code: string; decimals: number } } }>
    }
    const usd = accounts.rows.find((a) => a.balance.currency.code === 'USD')!
    const after = formatMoney(usd.balance.amount - 125_010, { code: 'USD', decimals: 2 })
    const review = pane.getByRole('group', { name: 'Review payment' })
    await expect(review.getByTestId('review-fee')).toContainText('$0.10', { timeout: FIRST_SYNC_MS })
    await expect(review.getByTestId('review-fee')).toContainText('latest USD transfer-out')
    await expect(review.getByTestId('review-total')).toHaveText('$1,250.10')
    await expect(review.getByTestId('review-balance-after')).toContainText(after)
    await expect(review.getByTestId('review-arrival')).not.toBeEmpty()
    await shot('one-truth-review')

    // Hold: the service answers the send, but no read of a transaction gets through, so PENDING is all Paydesk knows.
    await sandbox.api('POST', '/__faults', {
      rules: [
        { route: 'GET /transactions', kind: 'error', status: 503 },
        { route: 'GET /transactions/{transactionId}', kind: 'error', status: 503 }
      ]
    })
    await review.getByRole('button', { name: 'Send $1,250.00 to …9012' }).click()
    const done = pane.getByRole('status', { name: 'Payment sent' })
    await expect(done).toBeVisible()
    const id = (await done.locator('[data-paydesk-id^="Transaction:"]').first().getAttribute('data-paydesk-id'))!
    const journalRow = page
      .getByRole('table', { name: 'Transfers from this Paydesk' })
      .getByRole('row')
      .filter({ has: page.getByLabel(`Transaction ${id}`) })

    // Transactions, in a second window of the same Paydesk, beside the result panel.
    const other = await page.context().newPage()
    await other.goto(app.url)
    await nav(other, 'Transactions')
    await other.getByLabel('Filter transactions').fill(id)
    const listRow = other
      .getByRole('table', { name: 'Transactions' })
      .getByRole('row')
      .filter({ has: other.locator(`[data-paydesk-id="${id}"]`) })

    const everySurface = async (status: string) => {
      await expect(done.getByTestId('payment-status')).toHaveAttribute('data-status', status, {
        timeout: FIRST_SYNC_MS
      })
      await expect(journalRow.getByTestId('payment-status')).toHaveAttribute('data-status', status, {
        timeout: FIRST_SYNC_MS
      })
      await expect(listRow.locator('.chip').first()).toHaveText(status, { timeout: FIRST_SYNC_MS })
    }
    await everySurface('PENDING')
    await expect(done).toContainText('The transfer was accepted by the service and waits to be processed.')
    await expect(done.getByTestId('sent-fee')).toHaveText('$0.10')
    await expect(done.getByTestId('sent-total')).toHaveText('$1,250.10')
    await expect(done.getByTestId('sent-balance')).toHaveText(after, { timeout: FIRST_SYNC_MS })
    // Nothing is final yet, so nothing says it is.
    await expect(page.locator('.toast', { hasText: 'Transfer' })).toHaveCount(0)
    await shot('one-truth-pending')
    await other.screenshot({ path: test.info().outputPath('one-truth-pending-transactions.png'), fullPage: true })

    // Release: Paydesk follows the payment to its final status, and every surface says the same, the toast too.
    await sandbox.api('DELETE', '/__faults')
    await everySurface('COMPLETED')
    await expect(done).toContainText('The transfer reached the destination.')
    await expect(page.locator('.toast', { hasText: 'Transfer completed' })).toBeVisible()
    await expect(other.locator('.toast', { hasText: 'Transfer completed' })).toBeVisible()
    await shot('one-truth-completed')
    await other.screenshot({ path: test.info().outputPath('one-truth-completed-transactions.png'), fullPage: true })
  })
})

test('a funding request whose answer was lost is told once its outcome is known', async ({ page, app, shot }) => {
  await withStandaloneProfile(page, app.url, { name: 'Team sandbox', args: ['--faults'] }, async (sandbox) => {
    await nav(page, 'Sandbox tools')
    const fund = page.getByRole('form', { name: 'Fund an internal account' })
    const account = fund.getByLabel('Internal account')
    await expect(account.locator('option', { hasText: /^Platform · USD · / })).toHaveCount(1, {
      timeout: FIRST_SYNC_MS
    })
    await account.selectOption({
      label: (await account.locator('option', { hasText: /^Platform · USD · / }).textContent()) ?? ''
    })
    // The service adds the funds, then the connection drops before its answer: Paydesk cannot know, and says so.
    await sandbox.api('POST', '/__faults', {
      route: 'POST /sandbox/internal-accounts/{accountId}/fund',
      kind: 'commitThenDrop',
      times: 1
    })
    await fund.getByLabel('Amount to add').fill('25')
    await fund.getByRole('button', { name: 'Add $25.00 to the platform USD account' }).click()
    await expect(fund.getByRole('alert')).toContainText('may have been applied')
    // Then the balance, as sync reads it again, tells: the funds were added.
    await expect(fund.getByTestId('funding-follow-up')).toContainText('It went through after all: $25.00 was added', {
      timeout: FIRST_SYNC_MS
    })
    await shot('one-truth-funding-told-after-timeout')
  })
})
