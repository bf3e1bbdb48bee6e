import { expect, nav, test } from '../support/browser-mode'

test('customers: the seeded list with KYC chips, filters, keyboard and detail', async ({ page, app, shot }) => {
  await page.goto(app.url)
  await nav(page, 'Customers')
  const table = page.getByRole('table', { name: 'Customers' })
  await expect(table.getByRole('row', { name: /Jane Smith/ })).toBeVisible()
  await expect(table.getByRole('row', { name: /Jane Smith/ }).getByText('APPROVED')).toHaveClass(/chip-good/)

  // KYC filter: only the rejected one.
  await page.getByLabel('KYC status').selectOption('REJECTED')
  await expect(table.getByRole('row')).toHaveCount(2) // header + Marta
  await expect(table.getByText('REJECTED')).toHaveClass(/chip-bad/)
  await page.getByLabel('KYC status').selectOption('')

  // "/" focuses the search box; j selects the first row, the detail follows; Esc closes it.
  await page.locator('body').click()
  await page.keyboard.press('/')
  await expect(page.getByLabel('Search customers')).toBeFocused()
  await page.keyboard.type('jane')
  await expect(table.getByRole('row')).toHaveCount(2)
  await page.keyboard.press('Escape')
  await page.keyboard.press('j')
  const detail = page.getByTestId('customer-detail')
  await expect(detail.getByRole('heading', { name: 'Jane Smith' })).toBeVisible()
  await expect(detail.getByText('cust-jane-smith')).toBeVisible()
  await expect(detail.getByRole('table', { name: 'Customer external accounts' }).getByRole('row')).not.toHaveCount(0)
  await shot('customers-detail')
  await page.keyboard.press('Escape')
  await expect(detail).toHaveCount(0)
})

test('customers: a new customer is validated inline, then created and shown in the list', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  await nav(page, 'Customers')
  await page.getByRole('button', { name: 'New customer' }).first().click()
  const form = page.getByRole('form', { name: 'New customer' })

  // On blur: the shared schema's own message, under the field.
  await form.getByLabel('Birth date').fill('15/01/1990')
  await form.getByLabel('Birth date').blur()
  await expect(form.getByText('Date must be in the form YYYY-MM-DD')).toBeVisible()
  // On submit: every problem, nothing sent.
  await form.getByLabel('Address line 1').fill('9 Elm Street')
  await form.getByRole('button', { name: /^Create customer/ }).click()
  await expect(form.getByText('Enter the postal code')).toBeVisible()
  await shot('customers-new-invalid')

  await form.getByLabel('Full name').fill('Nora Lindqvist')
  await form.getByLabel('Birth date').fill('1985-03-04')
  await form.getByLabel('Nationality').fill('se')
  await form.getByLabel('Postal code').fill('11122')
  await form.getByLabel('City').fill('Stockholm')
  await form.getByLabel('Country').fill('se')
  await expect(form.getByText('Date must be in the form YYYY-MM-DD')).toHaveCount(0)
  await form.getByRole('button', { name: 'Create customer Nora Lindqvist' }).click()

  const detail = page.getByTestId('customer-detail')
  await expect(detail.getByRole('heading', { name: 'Nora Lindqvist' })).toBeVisible()
  await expect(detail.getByText('9 Elm Street, 11122 Stockholm, SE')).toBeVisible()
  await expect(
    page.getByRole('table', { name: 'Customers' }).getByRole('row', { name: /Nora Lindqvist/ })
  ).toBeVisible()
  await shot('customers-created')
})
