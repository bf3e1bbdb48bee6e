import {
  APPROVAL_FALLBACK_MS,
  expect,
  FIRST_SYNC_MS,
  test,
  type BrowserModeApp,
  type Page
} from '../support/browser-mode'
import {
  DECIDED_MS,
  decisionRow,
  expectTransactionStatus,
  gateLog,
  localGateUrl,
  keepBirthDate,
  openLiveApprovals,
  promptFor,
  receive,
  receiverWithoutBirthDate,
  saveApproveRule,
  seedCustomer
} from '../support/gate'

// Approvals against the Local profile's own approval gate: the Local sandbox signs each approval webhook to it, and the
// gate answers from its rules, a pre-approval, an operator's click or its fallback. The e2e Paydesk runs with a
// stretched approval window (browser-mode.ts: the fallback at APPROVAL_FALLBACK_MS after receipt instead of the real
// 4 s), so a click is never a race against the fallback's timer on a loaded machine; the fallback test awaits its event.
// Every wait is for what the page shows once the gate's stream told it; nothing sleeps.

/** The fallback comes APPROVAL_FALLBACK_MS after receipt; then its decision reaches the page like any other. */
const FALLBACK_DECIDED_MS = APPROVAL_FALLBACK_MS + DECIDED_MS

/**
 * The service has no birth date for Rosa and neither has the gate: no rule decides a payment to her, and its prompt
 * asks for the birth date. The payment, and its prompt once shown.
 */
async function rosaPaidWithoutBirthDate(page: Page, app: BrowserModeApp, amount: number) {
  await openLiveApprovals(page, app)
  const rosa = await receiverWithoutBirthDate(app)
  const payment = await receive(app, rosa.id, amount)
  return { payment, prompt: await promptFor(page, payment.id) }
}

test('a rule approves a payment at once, sending the fields the sender requested, and the payment completes', async ({
  page,
  app,
  shot
}) => {
  await openLiveApprovals(page, app)
  // The service has no birth date for Rosa: the sender requests BIRTH_DATE, which the platform keeps at its gate.
  const rosa = await receiverWithoutBirthDate(app)
  await keepBirthDate(page, 'Rosa Diaz', '1991-04-30')
  await saveApproveRule(page, 'Small USD', '500')
  await expect(page.getByLabel('Rule 1 ceiling 1', { exact: true })).toHaveValue('500.00')
  await shot('gate-rule-editor')

  const payment = await receive(app, rosa.id, 12_345)
  await page.getByRole('tab', { name: 'Decisions' }).click()
  const row = decisionRow(page, payment.id, 'Approved')
  await expect(row).toContainText('Rule “Small USD”', { timeout: DECIDED_MS })
  await expect(row).toContainText('$123.45')
  await expect(row).toContainText('Sent: BIRTH_DATE')
  await shot('gate-rule-decision')

  await expectTransactionStatus(page, payment.id, /COMPLETED/)
  await shot('gate-rule-completed')
})

test('a prompt approved by a click before its fallback completes the payment', async ({ page, app, shot }) => {
  await openLiveApprovals(page, app)
  const jane = await seedCustomer(app, 'cust-jane-smith')
  const payment = await receive(app, jane.id, 4_321)

  const prompt = await promptFor(page, payment.id)
  await expect(prompt.getByTestId('prompt-countdown')).toHaveText(/Rejecting automatically/)
  await prompt.getByRole('button', { name: 'Approve $43.21 USD' }).click()
  await expect(page.getByTestId('approval-outcome')).toHaveText('Approved $43.21 USD.')
  await expect(prompt).toHaveCount(0)
  await shot('gate-prompt-approved')

  await page.getByRole('tab', { name: 'Decisions' }).click()
  await expect(decisionRow(page, payment.id, 'Approved')).toContainText('Operator Paydesk Local')
  await expectTransactionStatus(page, payment.id, /COMPLETED/)
})

test('a prompt missing a mandatory field is approved once the operator fills it in, and the field is sent', async ({
  page,
  app,
  shot
}) => {
  const { payment, prompt } = await rosaPaidWithoutBirthDate(page, app, 6_789)
  await expect(prompt.getByRole('list', { name: 'Requested fields' })).toContainText('missing: fill it in below')
  await prompt.getByLabel('Birth date (YYYY-MM-DD)').fill('1991-04-30')
  await shot('gate-prompt-fill-in')
  await prompt.getByRole('button', { name: 'Approve $67.89 USD' }).click()
  await expect(page.getByTestId('approval-outcome')).toHaveText('Approved $67.89 USD.')
  await expect(prompt).toHaveCount(0)

  await page.getByRole('tab', { name: 'Decisions' }).click()
  const row = decisionRow(page, payment.id, 'Approved')
  await expect(row).toContainText('Operator Paydesk Local')
  await expect(row).toContainText('Sent: BIRTH_DATE')
  await shot('gate-prompt-filled-approved')
  await expectTransactionStatus(page, payment.id, /COMPLETED/)
})

test('approving a prompt without its missing mandatory field shows the error at that field, not the gate’s sentence', async ({
  page,
  app,
  shot
}) => {
  const prompt = (await rosaPaidWithoutBirthDate(page, app, 3_456)).prompt
  // Approve with the birth date box left empty: the gate refuses (422) and the card says so at the box.
  await prompt.getByRole('button', { name: 'Approve $34.56 USD' }).click()
  const box = prompt.getByLabel('Birth date (YYYY-MM-DD)')
  await expect(box).toHaveAttribute('aria-invalid', 'true')
  await expect(box).toHaveAccessibleDescription(
    'The sender requires this to approve, and the gate has no value for it: fill it in.'
  )
  await expect(prompt.getByRole('alert').filter({ hasText: 'fill in each field marked' })).toBeVisible()
  await expect(prompt).not.toContainText('Approving needs')
  await expect(prompt).not.toContainText('MISSING_RECEIVER_INFO')
  await shot('gate-prompt-missing-field-error')

  // Typing clears the error; filled in, the same Approve goes through.
  await box.fill('1991-04-30')
  await expect(box).not.toHaveAttribute('aria-invalid', 'true')
  await prompt.getByRole('button', { name: 'Approve $34.56 USD' }).click()
  await expect(page.getByTestId('approval-outcome')).toHaveText('Approved $34.56 USD.')
  await expect(prompt).toHaveCount(0)
})

test('a prompt nobody answers is rejected by the fallback, and the operator is told', async ({ page, app, shot }) => {
  // The app's start, the fallback's wait and its decision reaching the page: more than the default 60 s may be needed.
  test.setTimeout(FIRST_SYNC_MS + FALLBACK_DECIDED_MS + 30_000)
  await openLiveApprovals(page, app)
  const jane = await seedCustomer(app, 'cust-jane-smith')
  const payment = await receive(app, jane.id, 2_500)

  const prompt = await promptFor(page, payment.id)
  await shot('gate-prompt-waiting')

  const recent = page.getByTestId('recent-decisions').getByRole('listitem').filter({ hasText: '$25.00' })
  await expect(recent).toContainText('Rejected', { timeout: FALLBACK_DECIDED_MS })
  await expect(recent).toContainText('Fallback (no rule matched)')
  await expect(prompt).toHaveCount(0)
  await expect(page.locator('.toast').filter({ hasText: 'Payment rejected' })).toContainText('no operator answered')
  await shot('gate-fallback-told')

  await page.getByRole('tab', { name: 'Decisions' }).click()
  await expect(decisionRow(page, payment.id, 'Rejected')).toContainText('Fallback')
})

test('a pre-approval approves one matching payment, once: the next one asks', async ({ page, app, shot }) => {
  await openLiveApprovals(page, app)
  const jane = await seedCustomer(app, 'cust-jane-smith')
  await page.getByRole('tab', { name: 'Pre-approvals' }).click()
  const form = page.getByRole('form', { name: 'Add a pre-approval' })
  await form.getByLabel('Customer').selectOption({ label: 'Jane Smith' })
  await form.getByLabel('Currency').selectOption('USD')
  await form.getByLabel('Up to').fill('100')
  const tomorrow = new Date(Date.now() + 86_400_000)
  const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
  await form.getByLabel('Expires').fill(local)
  await form.getByRole('button', { name: 'Add pre-approval' }).click()
  await expect(form.getByText(/Pre-approved \$0\.00 to \$100\.00 USD for Jane Smith/)).toBeVisible()
  const preApprovals = page.getByRole('table', { name: 'Pre-approvals' })
  await expect(preApprovals.getByRole('row').nth(1)).toContainText('unused')

  const first = await receive(app, jane.id, 5_000)
  await page.getByRole('tab', { name: 'Decisions' }).click()
  await expect(decisionRow(page, first.id, 'Approved')).toContainText('Pre-approval', {
    timeout: DECIDED_MS
  })
  await page.getByRole('tab', { name: 'Pre-approvals' }).click()
  await expect(preApprovals.getByRole('row').nth(1)).toContainText('used')
  await shot('gate-pre-approval-used')

  const second = await receive(app, jane.id, 5_000)
  await page.getByRole('tab', { name: /^Waiting for you/ }).click()
  await promptFor(page, second.id)
  await shot('gate-pre-approval-second-asks')
})

test('a webhook with a forged signature is refused and decides nothing', async ({ page, app, shot }) => {
  await openLiveApprovals(page, app)
  const gate = await localGateUrl(app)
  const before = await gateLog(app)
  const body = JSON.stringify({
    id: 'Webhook:forged-0001',
    type: 'INCOMING_PAYMENT.PENDING',
    timestamp: new Date().toISOString(),
    data: {
      id: 'Transaction:0195ffff-0000-7000-8000-00000000f0f0',
      type: 'INCOMING',
      status: 'PENDING',
      customerId: 'Customer:forged',
      receivedAmount: { amount: 100, currency: { code: 'USD', decimals: 2 } }
    }
  })
  for (const signature of [
    Buffer.from('not a signature at all').toString('base64'),
    JSON.stringify({ v: '1', s: Buffer.alloc(64, 7).toString('base64') })
  ]) {
    const answer = await fetch(`${gate}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-grid-signature': signature },
      body
    })
    expect(answer.status).toBe(401)
  }
  const unsigned = await fetch(`${gate}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body
  })
  expect(unsigned.status).toBe(401)

  // The refusals are counted, and the log (the decisions list) gained nothing.
  const metrics = await (await fetch(`${gate}/metrics`)).text()
  expect(metrics).toMatch(/gate_webhooks_total\{status="401"\} 3\b/)
  const after = await gateLog(app)
  expect(after.map((e) => e.seq)).toEqual(before.map((e) => e.seq))
  // By keyboard, as the tab pattern goes: the arrow key moves from the selected tab to the next.
  await page.getByRole('tab', { name: /^Waiting for you/ }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('tab', { name: 'Decisions' })).toBeFocused()
  await expect(page.getByRole('tab', { name: 'Decisions' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('decision-log').or(page.getByText('The gate has logged nothing yet.'))).toBeVisible({
    timeout: FIRST_SYNC_MS
  })
  await expect(page.locator('[data-paydesk-id="Transaction:0195ffff-0000-7000-8000-00000000f0f0"]')).toHaveCount(0)
  await shot('gate-forged-refused')
})
