import AxeBuilder from '@axe-core/playwright'
import { expect, nav, type Page, test } from '../support/browser-mode'

/** Opens a customer's detail from the Customers list, as the operator would. */
async function openCustomer(page: Page, url: string, name: string) {
  await page.goto(url)
  await nav(page, 'Customers')
  await page
    .getByRole('table', { name: 'Customers' })
    .getByRole('row', { name: new RegExp(name) })
    .click()
  const detail = page.getByTestId('customer-detail')
  await expect(detail.getByRole('heading', { name })).toBeVisible()
  return detail
}

/** No serious or critical axe finding on the page as it stands, in the light and the dark theme. */
async function expectAxeClean(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 })
    const result = await new AxeBuilder({ page }).analyze()
    const serious = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${colorScheme} ${v.id}: ${v.nodes[0]?.target.join(' ')}`)
    expect(serious).toEqual([])
  }
  await page.emulateMedia({ colorScheme: null })
}

test('from a customer: an account added with a spaced IBAN or a dashed sort code, the beneficiary filled in from the customer', async ({
  page,
  app,
  shot
}) => {
  const customer = await openCustomer(page, app.url, 'Amelia Hughes')
  await customer.getByRole('button', { name: 'Add external account' }).click()

  // The add form opens under External accounts, for Amelia, her name and address already in the beneficiary.
  const form = page.getByRole('form', { name: 'Add external account' })
  await expect(form.getByLabel('Customer', { exact: true })).toHaveValue(/^Customer:/)
  await expect(form.getByLabel('Customer', { exact: true }).locator('option:checked')).toHaveText(
    'Amelia Hughes (cust-amelia-hughes)'
  )
  await expect(form.getByTestId('beneficiary-prefilled')).toContainText('Filled in from Amelia Hughes')
  await expect(form.getByLabel('Full name')).toHaveValue('Amelia Hughes')
  await expect(form.getByLabel('Address line 1')).toHaveValue('10 Downing Lane')
  await expect(form.getByLabel('Postal code')).toHaveValue('SW1A 2AA')

  await form.getByLabel('Account type').selectOption('GBP_ACCOUNT')
  await expect(form.getByLabel('Currency')).toHaveValue('GBP')
  // A wrong sort code is told at its box, in plain words; so is a name the operator cleared.
  const sortCode = form.getByLabel('Sort code')
  await sortCode.fill('40-47-8')
  await form.getByLabel('Account number').fill('1357 2468')
  await form.getByLabel('Full name').fill('')
  await form.getByRole('button', { name: 'Add UK bank account' }).click()
  await expect(sortCode).toHaveAttribute('aria-invalid', 'true')
  const sortCodeError = page.locator(`#${await sortCode.getAttribute('aria-describedby')}`)
  await expect(sortCodeError).toHaveText('UK (GBP) sort code must be 6 digits, such as 12-34-56')
  const fullName = form.getByLabel('Full name')
  await expect(fullName).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator(`#${await fullName.getAttribute('aria-describedby')}`)).toHaveText(
    'Enter the beneficiary’s full name'
  )
  // No request member's name anywhere on the form.
  const shown = await form.locator('.field-error, .form-errors').allTextContents()
  expect(shown.length).toBeGreaterThanOrEqual(2)
  expect(shown.join('\n')).not.toMatch(/fullName|sortCode|accountInfo|beneficiaryType/)
  await shot('customer-forms-errors-at-fields')
  await expectAxeClean(page)

  // As people write them: the dashes stay in the box, the service gets the six digits.
  await sortCode.fill('40-47-84')
  await fullName.fill('Amelia Hughes')
  await expect(form.locator('.field-error')).toHaveCount(0)
  await form.getByRole('button', { name: 'Add UK bank account' }).click()
  await expect(page.getByText(/Added UK bank account …2468/)).toBeVisible()
  const table = page.getByRole('table', { name: 'External accounts' })
  await expect(table.getByRole('row', { name: /Amelia Hughes.*…2468/ })).toBeVisible()
  const detail = page.getByTestId('external-account-detail')
  await expect(detail.locator('dt:text-is("Sort code") + dd')).toHaveText('404784')
  await expect(detail.locator('dt:text-is("Account number") + dd')).toHaveText('13572468')
  await shot('customer-forms-gbp-added')

  // Again from her detail: a EUR account, its IBAN pasted as printed, in lower case.
  const again = await openCustomer(page, app.url, 'Amelia Hughes')
  await again.getByRole('button', { name: 'Add external account' }).click()
  await expect(form.getByLabel('Full name')).toHaveValue('Amelia Hughes')
  await form.getByLabel('Account type').selectOption('EUR_ACCOUNT')
  await form.getByLabel('IBAN').fill('de89 3704 0044 0532 0130 00')
  await expect(form.getByLabel('IBAN')).toHaveValue('DE89 3704 0044 0532 0130 00')
  await shot('customer-forms-eur-spaced-iban')
  await form.getByRole('button', { name: /^Add EUR bank account/ }).click()
  await expect(page.getByText(/Added EUR bank account \(IBAN\) …3000/)).toBeVisible()
  await expect(table.getByRole('row', { name: /Amelia Hughes.*…3000/ })).toBeVisible()
  await expect(detail.locator('[data-paydesk-id="DE89370400440532013000"]')).toBeVisible()
  await shot('customer-forms-eur-added')
})

test('from a customer: Send money opens with that customer’s account as the source', async ({ page, app, shot }) => {
  const customer = await openCustomer(page, app.url, 'Jane Smith')
  await customer.getByRole('button', { name: 'Send money' }).click()

  const pane = page.getByRole('complementary', { name: 'Send money' })
  const source = pane.getByLabel('From internal account')
  await expect(source.locator('option:checked')).toHaveText(/^Jane Smith · USD · /)
  // Only Jane's own ACTIVE USD accounts can be paid from her account.
  const destination = pane.getByLabel('To external account')
  await expect(destination.locator('option', { hasText: '…9012' })).toHaveCount(1)
  await shot('customer-forms-send-money')
  await expectAxeClean(page)
})
