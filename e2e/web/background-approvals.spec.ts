import { FIRST_SYNC_MS, expect, nav, test } from '../support/browser-mode'
import { saveCeilingRule } from '../support/approval-rules'
import { withStandaloneProfile } from '../support/standalone-sandbox'

test('a profile with approval rules keeps watching while another is open; its notice switches to it and opens the payment', async ({
  page,
  app,
  shot
}) => {
  await withStandaloneProfile(page, app.url, 'Team sandbox', async (sandbox) => {
    await nav(page, 'Approvals')
    await saveCeilingRule(page, 'USD', '100')

    // The operator moves on to another profile.
    await page.getByRole('combobox', { name: 'Active profile' }).selectOption('local')
    await expect(page.getByTestId('environment-chip')).toHaveText('Local sandbox')

    // A payment above the ceiling arrives at the Team sandbox.
    const customers = (await sandbox.api('GET', '/customers?limit=100')) as {
      data: Array<{ id: string; kycStatus?: string; currencies?: string[]; region?: string }>
    }
    const customer = customers.data.find(
      (c) => c.kycStatus === 'APPROVED' && (c.currencies?.includes('USD') ?? c.region === 'US')
    )
    expect(customer).toBeDefined()
    await sandbox.api('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$pending.long.usd@sandbox.uma.money',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 50_000,
      customerId: customer!.id
    })

    const toast = page.locator('.toast').filter({ hasText: 'Team sandbox' }).filter({ hasText: '500.00' })
    await expect(toast).toBeVisible({ timeout: FIRST_SYNC_MS })
    await toast.locator('.toast-body').click()
    await expect(page.getByTestId('environment-chip')).toHaveText('Sandbox')
    await expect(page.getByRole('combobox', { name: 'Active profile' }).locator('option:checked')).toHaveText(
      'Team sandbox'
    )
    await expect(page.getByTestId('approval-form')).toContainText('$500.00')
    await shot('background-profile-approval')
  })
})
