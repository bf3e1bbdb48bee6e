import { expect, nav, type Page, test } from '../support/browser-mode'

async function open(page: Page, url: string) {
  await page.goto(url)
  await nav(page, 'External accounts')
}

/** Opens the add form with `customer` (as the Customer select labels it) chosen as the owner. */
async function openAddForm(page: Page, url: string, customer: string) {
  await open(page, url)
  await page.getByRole('button', { name: 'Add external account' }).first().click()
  const form = page.getByRole('form', { name: 'Add external account' })
  await form.getByLabel('Customer', { exact: true }).selectOption({ label: customer })
  return form
}

test('external accounts: filters by owner and status, detail with beneficiary and name check', async ({
  page,
  app,
  shot
}) => {
  await open(page, app.url)
  const table = page.getByRole('table', { name: 'External accounts' })
  await expect(table.getByRole('row', { name: /Jane Smith.*…9012/ })).toBeVisible()

  await page.getByRole('group', { name: 'Owner' }).getByRole('button', { name: 'Platform' }).click()
  await expect(table.getByRole('row', { name: /Jane Smith/ })).toHaveCount(0)
  await expect(table.getByRole('row', { name: /Paydesk Demo Platform Inc/ })).toBeVisible()
  await page.getByRole('group', { name: 'Owner' }).getByRole('button', { name: 'All' }).click()

  await table.getByRole('row', { name: /Jane Smith.*…9012/ }).click()
  const detail = page.getByTestId('external-account-detail')
  await expect(detail.getByText('Verified: ready to receive payments.')).toBeVisible()
  await expect(detail.getByText('021000021')).toBeVisible()
  await expect(detail.getByRole('heading', { name: 'Beneficiary' })).toBeVisible()
  await shot('external-accounts-detail')
})

test('external accounts: a bad routing number is refused inline and nothing is created; a good one is added, then deleted after review', async ({
  page,
  app,
  shot
}) => {
  await open(page, app.url)
  const table = page.getByRole('table', { name: 'External accounts' })
  await expect(table).toBeVisible()
  const before = await page.locator('.list-meta span').first().textContent()

  await page.getByRole('button', { name: 'Add external account' }).first().click()
  const form = page.getByRole('form', { name: 'Add external account' })
  await form.getByLabel('Customer', { exact: true }).selectOption({ label: 'Amelia Hughes (cust-amelia-hughes)' })
  await form.getByLabel('Routing number').fill('12345')
  await form.getByLabel('Routing number').blur()
  await expect(form.getByText('US routing number must be exactly 9 digits')).toBeVisible()
  await form.getByLabel('Account number').fill('55501234')
  // The beneficiary came from Amelia's record; USD needs the address, and the schema says so before anything is sent.
  await expect(form.getByLabel('Full name')).toHaveValue('Amelia Hughes')
  await form.getByLabel('City').fill('')
  await form.getByRole('button', { name: 'Add US bank account' }).click()
  await expect(form.getByText('US routing number must be exactly 9 digits')).toBeVisible()
  await expect(form.getByText('Enter the beneficiary’s city (required for a USD account)')).toBeVisible()
  await shot('external-accounts-invalid')
  await expect(page.locator('.list-meta span').first()).toHaveText(before ?? '')

  await form.getByLabel('Routing number').fill('021000021')
  await form.getByLabel('Address line 1').fill('10 Downing Lane')
  await form.getByLabel('City').fill('London')
  await form.getByLabel('Postal code').fill('SW1A 2AA')
  await form.getByLabel('Country', { exact: true }).fill('gb')
  await form.getByRole('button', { name: 'Add US bank account' }).click()

  await expect(page.getByText(/Added US bank account …1234/)).toBeVisible()
  const row = table.getByRole('row', { name: /Amelia Hughes.*US bank …1234/ })
  await expect(row).toBeVisible()
  const detail = page.getByTestId('external-account-detail')
  await expect(detail.getByText('55501234')).toBeVisible()
  // Created as the published API's USD_ACCOUNT, checking/savings as bankAccountType.
  await expect(detail.getByText('USD_ACCOUNT')).toBeVisible()
  await expect(detail.getByText('Checking or savings')).toBeVisible()
  await shot('external-accounts-created')

  await detail.getByRole('button', { name: 'Remove…' }).click()
  await expect(detail.getByRole('group', { name: 'Review removal' })).toBeVisible()
  await shot('external-accounts-remove-review')
  await detail.getByRole('button', { name: 'Delete Amelia Hughes · US bank account …1234 permanently' }).click()
  await expect(page.getByText('Deleted US bank account …1234.')).toBeVisible()
  await expect(row).toHaveCount(0)
})

test('external accounts: a Nigerian account picks its bank from the service’s list; a Spark wallet needs its network', async ({
  page,
  app,
  shot
}) => {
  const form = await openAddForm(page, app.url, 'Olu Adeyemi 001 (cust-olu-adeyemi)')
  await form.getByLabel('Account type').selectOption('NGN_ACCOUNT')
  await expect(form.getByLabel('Currency')).toHaveValue('NGN')
  const bank = form.getByLabel('Bank', { exact: true })
  await expect(bank.locator('option')).not.toHaveCount(1) // banks arrived from discoveries.list
  await form.getByRole('button', { name: /^Add Nigerian/ }).click()
  await expect(form.getByText('Choose the bank: required for Nigerian (NGN) accounts')).toBeVisible()
  await shot('external-accounts-ngn-bank')

  await form.getByLabel('Account type').selectOption('SPARK_WALLET')
  await expect(form.getByLabel('Network')).toHaveValue('SPARK_MAINNET')
  await form.getByLabel('Spark address').fill('spark1notreallyanaddress')
  await form.getByLabel('Spark address').blur()
  await expect(form.locator('.field-error')).toHaveCount(1)
})

test('external accounts: a business beneficiary is added and its legal name shows in the detail', async ({
  page,
  app
}) => {
  const form = await openAddForm(page, app.url, 'Amelia Hughes (cust-amelia-hughes)')
  await form.getByLabel('Routing number').fill('021000021')
  await form.getByLabel('Account number').fill('77704321')
  await form.getByLabel('Checking or savings').selectOption('SAVINGS')
  await form.getByLabel('Beneficiary type').selectOption('BUSINESS')
  await form.getByLabel('Legal name').fill('Hughes Trading Ltd')
  await form.getByRole('button', { name: 'Add US bank account' }).click()

  await expect(page.getByText(/Added US bank account …4321/)).toBeVisible()
  const detail = page.getByTestId('external-account-detail')
  await expect(detail.locator('dt:text-is("Legal name") + dd')).toHaveText('Hughes Trading Ltd')
  await expect(detail.locator('dt:text-is("Checking or savings") + dd')).toHaveText('SAVINGS')
})
