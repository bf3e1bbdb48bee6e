import { expect, FIRST_SYNC_MS, nav, test } from '../support/browser-mode'
import { decisionRow, keepBirthDate, RECEIVER_WITHOUT_BIRTH_DATE, saveApproveRule } from '../support/gate'
import { startStandaloneGate } from '../support/standalone-gate'
import { withStandaloneProfile } from '../support/standalone-sandbox'

// A remote profile and the gate its platform runs: without one, Approvals says so and lists nothing as waiting; linked
// with its URL and an operator token, the receiver information and the rules the operator writes decide a payment.

test('a profile links the gate its platform runs; its rule approves with the receiver information kept there', async ({
  page,
  app,
  shot
}) => {
  await withStandaloneProfile(page, app.url, { name: 'Team sandbox' }, async (sandbox) => {
    const gate = await startStandaloneGate(sandbox)
    try {
      await nav(page, 'Approvals')
      await expect(page.getByTestId('no-gate')).toContainText('npm run gate -- operator add NAME')
      await shot('gate-remote-none')
      const link = page.getByRole('form', { name: 'Link an approval gate' })
      await link.getByLabel('Gate URL').fill(gate.url)
      await link.getByLabel('Operator token').fill(gate.token)
      await link.getByRole('button', { name: 'Link gate' }).click()
      await expect(page.getByTestId('gate-link-state')).toHaveText('Live', { timeout: FIRST_SYNC_MS })
      await expect(page.getByTestId('no-gate')).toHaveCount(0)

      // The service has no birth date for Rosa: the platform keeps it at its gate, and a rule approves with it.
      const rosa = (await sandbox.api('POST', '/customers', RECEIVER_WITHOUT_BIRTH_DATE)) as { id: string }
      await keepBirthDate(page, 'Rosa Diaz', '1991-04-30')
      await shot('gate-remote-receiver-info')
      await saveApproveRule(page, 'Small USD', '12.3')

      const payment = (await sandbox.api('POST', '/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1_230,
        customerId: rosa.id
      })) as { id: string }

      await page.getByRole('tab', { name: 'Decisions' }).click()
      const row = decisionRow(page, payment.id, 'Approved')
      await expect(row).toContainText('Rule “Small USD”', { timeout: 20_000 })
      await expect(row).toContainText('Sent: BIRTH_DATE')
      await shot('gate-remote-decision')
    } finally {
      gate.stop()
    }
  })
})
