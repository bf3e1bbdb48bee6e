import { BRIDGE_INVOKE_PATH } from '../../src/shared/ipc/wire'
import { expect, FIRST_SYNC_MS, nav, type Page, test } from '../support/browser-mode'
import { openSendMoney, payJaneFromPlatformUsd } from '../support/send-money'

/** Opens Send money with the platform's USD account paying Jane Smith's US account: the amount is the test's. */
async function startPayment(page: Page, url: string) {
  await open(page, url)
  const pane = await openSendMoney(page)
  await payJaneFromPlatformUsd(pane)
  return pane
}

async function open(page: Page, url: string) {
  await page.goto(url)
  await nav(page, 'Internal accounts')
}

test('internal accounts: balances right-aligned with their currency codes, funding instructions in the detail', async ({
  page,
  app,
  shot
}) => {
  await open(page, app.url)
  const table = page.getByRole('table', { name: 'Balances' })
  const usd = table
    .getByRole('row')
    .filter({ hasText: /^Platform/ })
    .filter({ has: page.getByRole('cell', { name: 'USD', exact: true }) })
  await expect(usd).toBeVisible()
  // Currencies mix on this screen, so every amount carries its code; amounts are right-aligned tabular figures.
  const cell = usd.locator('td.num')
  await expect(cell).toHaveText(/^\$[\d,]+\.\d{2} USD$/)
  await expect(cell).toHaveCSS('text-align', 'right')
  await expect(
    table
      .getByRole('row')
      .filter({ hasText: /^Platform/ })
      .filter({ has: page.getByRole('cell', { name: 'BTC', exact: true }) })
      .locator('td.num')
  ).toContainText('BTC')

  await usd.click()
  const detail = page.getByTestId('internal-account-detail')
  await expect(detail.getByRole('heading', { name: 'Platform · USD' })).toBeVisible()
  await expect(detail.getByRole('heading', { name: 'Funding instructions' })).toBeVisible()
  // Every field the service sends, in full, each with its own copy button.
  await expect(detail.getByRole('button', { name: 'Copy 021000021' })).toBeVisible()
  await expect(detail.getByRole('button', { name: /^Copy FUND-/ })).toBeVisible()
  await shot('internal-accounts-detail')

  // EUR is paid in by IBAN on SEPA (the published shape), not an account number.
  await table
    .getByRole('row')
    .filter({ hasText: /^Platform/ })
    .filter({ has: page.getByRole('cell', { name: 'EUR', exact: true }) })
    .click()
  await expect(detail.getByRole('heading', { name: 'Platform · EUR' })).toBeVisible()
  await expect(detail.getByText('IBAN', { exact: true })).toBeVisible()
  await expect(detail.getByRole('button', { name: /^Copy DE[0-9]{20}$/ })).toBeVisible()
  await expect(detail.getByText('SEPA')).toBeVisible()
})

test('internal accounts: send money through the review step; a retry after an error reuses the same action id', async ({
  page,
  app,
  shot
}) => {
  const pane = await startPayment(page, app.url)
  await pane.getByLabel('Amount').fill('1,250')
  await expect(pane.getByText('= $1,250.00')).toBeVisible()
  await pane.getByRole('button', { name: 'Review payment' }).click()

  const review = pane.getByRole('group', { name: 'Review payment' })
  await expect(review).toBeVisible()
  await expect(review.getByText('I am sending real money')).toHaveCount(0) // not a production profile
  await shot('internal-accounts-send-review')

  // The first attempt never reaches main (the connection drops); the retry must carry the same actionId.
  const actionIds: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith(`${BRIDGE_INVOKE_PATH}transfers.send`))
      actionIds.push(JSON.parse(request.postData() ?? '{}').input.actionId)
  })
  await page.route(`**${BRIDGE_INVOKE_PATH}transfers.send`, (route) => route.abort('connectionreset'))
  await review.getByRole('button', { name: 'Send $1,250.00 to …9012' }).click()
  await expect(review.getByRole('alert')).toContainText('UNREACHABLE')
  await expect(review.getByRole('alert')).toContainText('Trying again is safe')
  await shot('internal-accounts-send-error')
  await page.unroute(`**${BRIDGE_INVOKE_PATH}transfers.send`)
  await review.getByRole('button', { name: 'Try again: Send $1,250.00 to …9012' }).click()

  const done = pane.getByRole('status', { name: 'Payment sent' })
  await expect(done).toBeVisible()
  await expect(done.getByText(/^Transaction:/)).toBeVisible()
  expect(actionIds).toHaveLength(2)
  expect(actionIds[0]).toMatch(/^[0-9a-f-]{36}$/)
  expect(actionIds[1]).toBe(actionIds[0])

  const journal = page.getByRole('table', { name: 'Transfers from this Paydesk' })
  const sentRow = journal.getByRole('row', { name: /\$1,250\.00 USD/ })
  await expect(sentRow).toContainText(/PENDING|PROCESSING|COMPLETED/)
  await expect(sentRow).toContainText('Jane Smith …9012') // outcome known: the transaction's own status
  await shot('internal-accounts-sent')
  // The toast that tells the end names where the money went, as the lists do, and shows no id.
  const toast = page.locator('.toast', { hasText: 'Transfer completed' })
  await expect(toast).toContainText('1,250.00 USD reached Jane Smith · US bank …9012.', { timeout: FIRST_SYNC_MS })
  await expect(toast).not.toContainText(/(Customer|InternalAccount|ExternalAccount|Transaction):/)
  await shot('internal-accounts-sent-toast')

  // A new payment is a new action: a new id.
  await done.getByRole('button', { name: 'Send another' }).click()
  await pane.getByLabel('To external account').selectOption({ label: 'Jane Smith · US bank account …9012' })
  await pane.getByLabel('Amount').fill('1')
  await pane.getByRole('button', { name: 'Review payment' }).click()
  await pane.getByRole('button', { name: 'Send $1.00 to …9012' }).click()
  await expect(pane.getByRole('status', { name: 'Payment sent' })).toBeVisible()
  expect(actionIds).toHaveLength(3)
  expect(actionIds[2]).not.toBe(actionIds[0])
})

test('internal accounts: an amount that needs rounding or exceeds the balance never reaches review', async ({
  page,
  app
}) => {
  const pane = await startPayment(page, app.url)
  await pane.getByLabel('Amount').fill('10.005')
  await pane.getByRole('button', { name: 'Review payment' }).click()
  await expect(pane.getByText('Use at most 2 decimal places')).toBeVisible()
  await pane.getByLabel('Amount').fill('999999999')
  await expect(pane.getByText(/More than this account holds/)).toBeVisible()
  await expect(pane.getByRole('group', { name: 'Review payment' })).toHaveCount(0)
})

test('internal accounts: on a production profile the review asks twice and Send stays disabled until confirmed', async ({
  page,
  app,
  shot
}) => {
  // The Local sandbox's own secret is not readable, so a real production profile cannot reach it: present the local
  // profile to the page as a production one instead (main still talks to the Local sandbox).
  await page.route(`**${BRIDGE_INVOKE_PATH}profiles.list`, async (route) => {
    const response = await route.fetch()
    const body = await response.json()
    for (const p of body.value.profiles) p.environment = 'production'
    await route.fulfill({ response, json: body })
  })
  await open(page, app.url)
  await expect(page.getByRole('status', { name: 'Production profile: real money' })).toBeVisible()
  const pane = await openSendMoney(page)
  await payJaneFromPlatformUsd(pane)
  await pane.getByLabel('Amount').fill('1250')
  await pane.getByRole('button', { name: 'Review payment' }).click()

  const review = pane.getByRole('group', { name: 'Review payment' })
  const confirm = review.getByRole('checkbox', { name: /I am sending real money/ })
  const send = review.getByRole('button', { name: 'Send $1,250.00 to …9012' })
  await expect(confirm).not.toBeChecked()
  await expect(send).toBeDisabled()
  await shot('internal-accounts-production-review')
  await confirm.check()
  await expect(send).toBeEnabled()
})

test('internal accounts: going back and reviewing the same payment again keeps its action id, so it is sent once', async ({
  page,
  app
}) => {
  const pane = await startPayment(page, app.url)
  await pane.getByLabel('Amount').fill('42')
  const actionIds: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith(`${BRIDGE_INVOKE_PATH}transfers.send`))
      actionIds.push(JSON.parse(request.postData() ?? '{}').input.actionId)
  })
  const review = pane.getByRole('group', { name: 'Review payment' })
  const requestKey = async () =>
    (await review
      .locator('dt:text-is("Request key") + dd')
      .getByRole('button', { name: /^Copy / })
      .getAttribute('aria-label'))!

  await pane.getByRole('button', { name: 'Review payment' }).click()
  const first = await requestKey()
  // The answer is lost: the outcome is unknown.
  await page.route(`**${BRIDGE_INVOKE_PATH}transfers.send`, (route) => route.abort('connectionreset'))
  await review.getByRole('button', { name: 'Send $42.00 to …9012' }).click()
  await expect(review.getByRole('alert')).toBeVisible()
  await page.unroute(`**${BRIDGE_INVOKE_PATH}transfers.send`)

  // Back, and the same payment reviewed again: the same request key.
  await review.getByRole('button', { name: 'Back: change the payment' }).click()
  await pane.getByRole('button', { name: 'Review payment' }).click()
  expect(await requestKey()).toBe(first)
  await review.getByRole('button', { name: 'Send $42.00 to …9012' }).click()
  await expect(pane.getByRole('status', { name: 'Payment sent' })).toBeVisible()
  expect(new Set(actionIds).size).toBe(1)

  // A changed payment is a new action.
  await pane.getByRole('button', { name: 'Send another' }).click()
  await pane.getByLabel('To external account').selectOption({ label: 'Jane Smith · US bank account …9012' })
  await pane.getByLabel('Amount').fill('43')
  await pane.getByRole('button', { name: 'Review payment' }).click()
  expect(await requestKey()).not.toBe(first)
})

test('internal accounts: a payment whose key may be forgotten asks for a check at the service before sending again', async ({
  page,
  app,
  shot
}) => {
  // Main's side (the 24 h window, the look-up) is proven against the sandbox in tests/main; here the page answers
  // what main answers for an expired unknown transfer, to show what the operator sees and what the page sends.
  const calls: Array<{ channel: string; input: Record<string, unknown> }> = []
  const answer = (channel: string, body: unknown) =>
    page.route(`**${BRIDGE_INVOKE_PATH}${channel}`, async (route) => {
      calls.push({ channel, input: JSON.parse(route.request().postData() ?? '{}').input })
      await route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) })
    })
  const pane = await startPayment(page, app.url)
  await pane.getByLabel('Amount').fill('77')
  await pane.getByRole('button', { name: 'Review payment' }).click()
  const review = pane.getByRole('group', { name: 'Review payment' })

  await answer('transfers.send', {
    ok: false,
    error: {
      code: 'CHECK_REQUIRED',
      message: 'The outcome of this transfer is unknown and its idempotency key went to the service more than 24 h ago.'
    }
  })
  await review.getByRole('button', { name: 'Send $77.00 to …9012' }).click()
  const check = review.getByRole('group', { name: 'Check the service first' })
  await expect(check).toContainText('could pay a second time')
  // No plain retry is offered any more.
  await expect(review.getByRole('button', { name: /Send \$77\.00/ })).toHaveCount(0)

  const actionId = calls[0]!.input['actionId'] as string
  const record = {
    actionId,
    sourceAccountId: calls[0]!.input['sourceAccountId'],
    destinationAccountId: calls[0]!.input['destinationAccountId'],
    amount: 7_700,
    createdAt: new Date().toISOString(),
    state: 'unknown',
    attempts: 1
  }
  await answer('transfers.check', { ok: true, value: { profileId: 'local', record, matches: [] } })
  await check.getByRole('button', { name: 'Check the service for this payment' }).click()
  await expect(check.getByRole('status')).toContainText('The service shows no outgoing payment')
  await shot('internal-accounts-check-first')

  const transaction = { id: 'Transaction:0199aaaa-0000-7000-8000-000000000077', type: 'OUTGOING', status: 'PENDING' }
  await answer('transfers.sendAgain', {
    ok: true,
    value: {
      profileId: 'local',
      transaction,
      record: { ...record, actionId: 'new', state: 'sent', replaces: actionId }
    }
  })
  await check.getByRole('button', { name: 'It did not go through: send it again' }).click()
  await expect(pane.getByRole('status', { name: 'Payment sent' })).toBeVisible()
  const again = calls.find((c) => c.channel === 'transfers.sendAgain')!.input
  expect(again).toMatchObject({ actionId, confirmNotSent: true })
  expect(again['newActionId']).toMatch(/^[0-9a-f-]{36}$/)
  expect(again['newActionId']).not.toBe(actionId)
})
