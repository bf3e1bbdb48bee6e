import { FIRST_SYNC_MS, expect, nav, type Page, test } from '../support/browser-mode'
import { withStandaloneProfile } from '../support/standalone-sandbox'

async function openJaneSmith(page: Page) {
  await nav(page, 'External accounts')
  const table = page.getByRole('table', { name: 'External accounts' })
  // The row arrives with the profile's first sync, which takes seconds on a loaded machine (FIRST_SYNC_MS): waited for
  // under that bound, not the click's share of whatever remains of the test's 60 s.
  const row = table.getByRole('row', { name: /Jane Smith.*…9012/ })
  await expect(row).toBeVisible({ timeout: FIRST_SYNC_MS })
  await row.click()
  const detail = page.getByTestId('external-account-detail')
  await expect(detail.getByTestId('account-status').getByText('ACTIVE', { exact: true })).toBeVisible()
  return detail
}

test('edit a beneficiary: the warning, then the account goes UNDER_REVIEW and back to ACTIVE by itself', async ({
  page,
  app,
  shot
}) => {
  // The first sync's bound plus the edit and the sandbox's 10 s re-review (followed live, up to 30 s).
  test.setTimeout(FIRST_SYNC_MS + 60_000)
  await page.goto(app.url)
  const detail = await openJaneSmith(page)

  await detail.getByRole('button', { name: 'Edit…' }).click()
  const form = detail.getByRole('form', { name: 'Edit account' })
  const warning = form.getByTestId('re-review-warning')
  await expect(warning).toContainText('Changing the beneficiary may trigger a re-review')
  // Only the platform id changed: no re-review is announced on the button.
  await form.getByLabel('Platform account id').fill('ledger-jane-1')
  await expect(form.getByRole('button', { name: 'Save changes', exact: true })).toBeVisible()
  await form.getByLabel('Full name').fill('Jane A. Smith')
  await expect(warning).toHaveClass(/hint-waiting/)
  // Per-country rules of creation: a USD beneficiary needs its address.
  await form.getByLabel('City').fill('')
  await form.getByRole('button', { name: 'Save changes and send for re-review' }).click()
  await expect(form.getByLabel('City')).toHaveAttribute('aria-invalid', 'true')
  await expect(form.getByText('Enter the beneficiary’s city (required for a USD account)')).toBeVisible()
  await form.getByLabel('City').fill('Austin')
  await shot('account-edit-form')
  await form.getByRole('button', { name: 'Save changes and send for re-review' }).click()

  const status = detail.getByTestId('account-status')
  await expect(status.getByText('UNDER_REVIEW', { exact: true })).toBeVisible()
  await expect(status.getByTestId('following-live')).toBeVisible()
  await expect(detail.getByText('Jane A. Smith').first()).toBeVisible()
  await expect(detail.getByText('ledger-jane-1')).toBeVisible()
  await shot('account-edit-under-review')

  // The sandbox's re-review takes 10 s; main follows the account and the detail changes by itself.
  await expect(status.getByText('ACTIVE', { exact: true })).toBeVisible({ timeout: 30_000 })
  await expect(status.getByTestId('following-live')).toHaveCount(0)
  await shot('account-edit-active-again')
})

test('a field the service refuses is shown at that field, and nothing changes', async ({ page, app, shot }) => {
  // A second sandbox's start (up to 20 s), its first sync's bound, then the edit.
  test.setTimeout(FIRST_SYNC_MS + 60_000)
  await withStandaloneProfile(page, app.url, { name: 'Strict sandbox', args: ['--faults'] }, async (sandbox) => {
    const detail = await openJaneSmith(page)
    const before = (await sandbox.api('GET', '/customers/external-accounts?limit=100')) as {
      data: { id: string; platformAccountId?: string; accountInfo: { accountNumber?: string } }[]
    }
    const jane = before.data.find((a) => a.accountInfo.accountNumber?.endsWith('9012'))
    expect(jane).toBeDefined()

    // The service (not Paydesk's own rules) refuses the new name, naming the field in its details.
    await sandbox.api('POST', '/__faults', {
      route: 'PATCH /customers/external-accounts/{externalAccountId}',
      kind: 'error',
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The receiving bank cannot carry this name',
      details: { issues: [{ path: 'beneficiary.fullName', message: 'The receiving bank cannot carry this name' }] },
      times: 1
    })
    await detail.getByRole('button', { name: 'Edit…' }).click()
    const form = detail.getByRole('form', { name: 'Edit account' })
    await form.getByLabel('Platform account id').fill('should-not-stick')
    await form.getByLabel('Full name').fill('Jane ☃ Smith')
    await form.getByRole('button', { name: 'Save changes and send for re-review' }).click()

    const name = form.getByLabel('Full name')
    await expect(name).toHaveAttribute('aria-invalid', 'true')
    await expect(name).toHaveAccessibleDescription('The receiving bank cannot carry this name')
    await expect(name).toBeFocused()
    await expect(form.getByRole('alert').filter({ hasText: 'INVALID_INPUT' })).toBeVisible()
    await shot('account-edit-refused-field')

    const after = (await sandbox.api('GET', `/customers/external-accounts/${jane?.id ?? ''}`)) as {
      status: string
      platformAccountId?: string
      accountInfo: { beneficiary: { fullName: string } }
    }
    expect(after.status).toBe('ACTIVE')
    expect(after.platformAccountId).toBe(jane?.platformAccountId)
    expect(after.accountInfo.beneficiary.fullName).toBe('Jane Smith')
    await form.getByRole('button', { name: 'Cancel' }).click()
    await expect(detail.getByTestId('account-status').getByText('ACTIVE', { exact: true })).toBeVisible()
    await expect(detail.getByText('should-not-stick')).toHaveCount(0)
  })
})
