import { FIRST_SYNC_MS, expect, invoke, test, type BrowserModeApp } from '../support/browser-mode'
import { saveCeilingRule } from '../support/approval-rules'

interface CustomerRow {
  id: string
  fullName?: string
  kycStatus?: string
  currencies?: string[]
  region?: string
}

async function approvedCustomer(app: BrowserModeApp): Promise<CustomerRow> {
  // The first sync fills the cache; wait for a customer whose KYC is APPROVED (seed data has one per status). The
  // Local sandbox's start and first sync take seconds on a loaded machine (18 s seen beside three busy processes):
  // 50 tries 200 ms apart could give up first.
  let found: CustomerRow | undefined
  await expect
    .poll(
      async () => {
        const window = (await invoke(app, 'customers.query', { kycStatus: 'APPROVED', limit: 100 })) as {
          rows: CustomerRow[]
        }
        found = window.rows.find((c) => c.currencies?.includes('USD') ?? c.region === 'US')
        return found !== undefined
      },
      { message: 'an APPROVED customer in the Local sandbox', timeout: FIRST_SYNC_MS, intervals: [200] }
    )
    .toBe(true)
  return found!
}

async function receive(
  app: BrowserModeApp,
  customerId: string,
  amount: number,
  sender = '$pending.long.usd@sandbox.uma.money'
) {
  return (await invoke(app, 'sandbox.receive', {
    senderUmaAddress: sender,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: amount,
    customerId
  })) as { id: string; status: string }
}

test('an incoming payment raises a notice that opens its approval, prefilled from the customer, and approving clears it', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  const customer = await approvedCustomer(app)
  const payment = await receive(app, customer.id, 12_345)

  const toast = page.locator('.toast').filter({ hasText: '123.45' })
  await expect(toast).toBeVisible({ timeout: FIRST_SYNC_MS })
  await expect(page.getByRole('navigation', { name: 'Sections' }).getByLabel(/awaiting approval/)).toBeVisible()
  await toast.locator('.toast-body').click()

  const form = page.getByTestId('approval-form')
  await expect(form).toContainText('$123.45')
  await expect(form.getByLabel('Full name')).toHaveValue(customer.fullName ?? '')
  await shot('approval-prefilled')

  await form.getByRole('button', { name: 'Approve $123.45' }).click()
  await expect(page.getByTestId('approval-outcome')).toHaveText('Approved $123.45.')
  await expect(page.getByRole('table', { name: 'Payments waiting for approval' }).getByText('$123.45')).toHaveCount(0, {
    timeout: 15_000
  })

  await page.getByRole('button', { name: /^Transactions/ }).click()
  await page.getByLabel('Filter transactions').fill(payment.id)
  await page.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1).click()
  await expect(page.getByTestId('transaction-detail')).toContainText(/PROCESSING|COMPLETED/)
  await shot('approved-transaction')
})

test('rejecting needs a reason, and a payment decided elsewhere while open is shown as no longer waiting', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  const customer = await approvedCustomer(app)
  await receive(app, customer.id, 5_000)
  const second = await receive(app, customer.id, 7_000)

  await page.getByRole('button', { name: /^Approvals/ }).click()
  const queue = page.getByRole('table', { name: 'Payments waiting for approval' })
  await queue.getByText('$50.00').click()
  const form = page.getByTestId('approval-form')
  await form.getByRole('button', { name: 'Reject $50.00' }).click()
  await expect(form.getByText('Give a reason')).toBeVisible()
  await form.getByLabel('Reason for rejecting').fill('Sender not recognised')
  await form.getByRole('button', { name: 'Reject $50.00' }).click()
  await expect(page.getByTestId('approval-outcome')).toHaveText('Rejected $50.00.')

  // Someone else (another operator, a rule) decides the second payment while it is open here.
  await queue.getByText('$70.00').click()
  await invoke(app, 'approvals.reject', { transactionId: second.id, reason: 'decided elsewhere' })
  await expect(page.getByRole('complementary', { name: 'Approval' })).toContainText(
    'This payment is no longer waiting for approval'
  )
  await expect(page.getByTestId('approval-form')).toHaveCount(0)
  await shot('approval-conflict')
})

test('approval rules approve a payment within the ceiling at once and record why', async ({ page, app, shot }) => {
  await page.goto(app.url)
  const customer = await approvedCustomer(app)
  await page.getByRole('button', { name: /^Approvals/ }).click()
  await saveCeilingRule(page, 'USD', '250')

  await receive(app, customer.id, 20_000) // $200.00: within the ceiling
  await receive(app, customer.id, 30_000) // $300.00: above it, waits for a person

  await page.getByRole('tab', { name: 'Automatic decisions' }).click()
  const log = page.getByRole('table', { name: 'Automatic decisions' })
  await expect(log.getByRole('row').filter({ hasText: '$200.00' })).toContainText('Approved', { timeout: 15_000 })
  await expect(log.getByRole('row').filter({ hasText: '$300.00' })).toContainText('Left for you')
  await page.getByRole('tab', { name: /Waiting/ }).click()
  await expect(page.getByRole('table', { name: 'Payments waiting for approval' })).toContainText('$300.00')
  await shot('approval-rules')
})
