import { expect, nav, test } from '../support/browser-mode'
import { withStandaloneProfile } from '../support/standalone-sandbox'
import { openSendMoney, payJaneFromPlatformUsd } from '../support/send-money'

test('a transfer whose answer never arrives is shown as unknown, and "Review and retry" finds it at the service and settles it, moving money once', async ({
  page,
  app,
  shot
}) => {
  test.setTimeout(120_000)
  await withStandaloneProfile(page, app.url, { name: 'Faulty sandbox', args: ['--faults'] }, async (sandbox) => {
    await nav(page, 'Internal accounts')

    // Every transfer-out takes effect on the service, but its answer is lost on the way back.
    await sandbox.api('POST', '/__faults', { route: 'POST /transfer-out', kind: 'commitThenDrop' })

    const pane = await openSendMoney(page)
    await payJaneFromPlatformUsd(pane)
    await pane.getByLabel('Amount').fill('321.09')
    await pane.getByRole('button', { name: 'Review payment' }).click()
    await pane.getByRole('button', { name: 'Send $321.09 to …9012' }).click()
    await expect(pane.getByRole('alert')).toBeVisible({ timeout: 60_000 })
    await shot('transfer-outcome-unknown')

    const journal = page.getByRole('table', { name: 'Transfers from this Paydesk' })
    const row = journal.getByRole('row', { name: /\$321\.09 USD/ })
    await expect(row.getByRole('button', { name: 'Review and retry' })).toBeVisible()

    // The connection is healthy again; the operator retries the same action. Main looks it up first and finds it.
    await sandbox.api('DELETE', '/__faults')
    await row.getByRole('button', { name: 'Review and retry' }).click()
    await pane.getByRole('button', { name: /Send \$321\.09 to …9012/ }).click()
    const check = pane.getByRole('group', { name: 'Check the service first' })
    await check.getByRole('button', { name: 'Check the service for this payment' }).click()
    const found = check.getByRole('table', { name: 'Matching transactions at the service' })
    await expect(found.getByRole('button', { name: 'This is it' })).toHaveCount(1)
    // Found: it is not offered to be sent again.
    await expect(check.getByRole('button', { name: /did not go through/ })).toHaveCount(0)
    await shot('transfer-found-at-service')
    await found.getByRole('button', { name: 'This is it' }).click()
    await expect(pane.getByRole('status', { name: 'Payment sent' })).toBeVisible({ timeout: 30_000 })
    await expect(row).toContainText(/PENDING|PROCESSING|COMPLETED/)
    await shot('transfer-recovered')

    const outgoing = (await sandbox.api('GET', '/transactions?type=OUTGOING&limit=100')) as {
      data: Array<{ sentAmount?: { amount: number }; destination?: { accountId?: string }; createdAt?: string }>
    }
    const mine = outgoing.data.filter(
      (t) => t.sentAmount && t.sentAmount.amount >= 32_109 && t.sentAmount.amount <= 32_109 + 1_000
    )
    expect(mine).toHaveLength(1)
  })
})
