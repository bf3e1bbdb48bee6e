import { startPrismMock, type Prism } from '../../tests/contract/prism'
import { SPARK } from '../../tests/shared/api/fixtures'
import { expect, test, type Page } from '../support/browser-mode'
import { addProfileInSettings } from '../support/profiles'

// The whole app, in browser mode, against Prism serving the published OpenAPI's examples (static mode) on loopback:
// the closest this machine gets to the real service. Prism starts once for the file (it is slow to boot).
let prism: Prism
test.beforeAll(async () => {
  test.setTimeout(180_000)
  prism = await startPrismMock('static')
})
test.afterAll(async () => {
  await prism?.close()
})

const AUTH = { authorization: `Basic ${Buffer.from('prism-token:prism-secret').toString('base64')}` }

/** What Prism answers for a path: the published example Paydesk must show. */
async function published<T>(path: string): Promise<T> {
  const r = await fetch(`${prism.baseUrl}${path}`, { headers: AUTH })
  expect(r.status, `${path} on Prism`).toBe(200)
  return (await r.json()) as T
}

async function section(page: Page, name: RegExp) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click()
}

test('against the static Prism mock: Live, the published examples in every view, three accounts created', async ({
  page,
  app,
  shot
}) => {
  test.setTimeout(180_000)
  await page.goto(app.url)
  await addProfileInSettings(page, {
    name: 'Published API (Prism)',
    baseUrl: prism.baseUrl,
    tokenId: 'prism-token',
    clientSecret: 'prism-secret'
  })
  await expect(page.getByText('Added “Published API (Prism)”.')).toBeVisible()
  await page
    .getByRole('row', { name: /Published API \(Prism\)/ })
    .getByRole('button', { name: 'Switch to' })
    .click()
  await expect(page.getByText('Live', { exact: true })).toBeVisible({ timeout: 60_000 })

  // Home: the latest transactions, and the platform's balances. The published example of a platform account carries
  // a customerId; listed under /platform it is the platform's (docs/real-service.md), as the connection card counts it.
  await section(page, /^Home/)
  await expect(page.getByRole('table', { name: 'Latest transactions' }).getByRole('row').first()).toContainText(
    'Transaction:'
  )
  await expect(page.getByRole('table', { name: 'Platform balances' }).getByRole('row').first()).toContainText(
    'InternalAccount:'
  )
  await shot('prism-home')

  const customers = await published<{ data: Array<{ fullName?: string; platformCustomerId: string }> }>('/customers')
  const customer = customers.data[0]!
  await section(page, /^Customers/)
  await expect(page.getByText(customer.fullName ?? customer.platformCustomerId).first()).toBeVisible()

  const internal = await published<{ data: Array<{ id: string }> }>('/platform/internal-accounts')
  expect(internal.data.length).toBeGreaterThan(0)
  await section(page, /^Internal accounts/)
  await expect(page.getByRole('table').first().getByRole('row').nth(1)).toBeVisible()

  await section(page, /^Transactions/)
  await expect(page.getByRole('table').first().getByRole('row').nth(1)).toBeVisible()
  await shot('prism-transactions')

  await section(page, /^External accounts/)
  const table = page.getByRole('table', { name: 'External accounts' })
  await expect(table.getByRole('row').nth(1)).toBeVisible()
  await shot('prism-external-accounts')

  const label = customer.fullName
    ? `${customer.fullName} (${customer.platformCustomerId})`
    : customer.platformCustomerId
  const add = async (fill: (form: ReturnType<Page['getByRole']>) => Promise<void>) => {
    await page.getByRole('button', { name: 'Add external account' }).first().click()
    const form = page.getByRole('form', { name: 'Add external account' })
    await form.getByLabel('Customer', { exact: true }).selectOption({ label })
    await fill(form)
    await form.getByRole('button', { name: /^Add / }).click()
    await expect(page.getByText(/^Added .*\(/)).toBeVisible()
    await expect(form).toHaveCount(0)
  }
  const bank = async (form: ReturnType<Page['getByRole']>) => {
    await form.getByLabel('Routing number').fill('021000021')
    await form.getByLabel('Account number').fill('12345678901')
    await form.getByLabel('Address line 1').fill('123 Main Street')
    await form.getByLabel('City').fill('San Francisco')
    await form.getByLabel('Postal code').fill('94105')
    await form.getByLabel('Country', { exact: true }).fill('US')
  }
  // A US bank account
  await add(async (form) => {
    await bank(form)
    await form.getByLabel('Full name').fill('John Doe')
  })
  // A business beneficiary
  await add(async (form) => {
    await form.getByLabel('Beneficiary type').selectOption('BUSINESS')
    await bank(form)
    await form.getByLabel('Legal name').fill('Acme Corporation')
  })
  // A Spark wallet
  await add(async (form) => {
    await form.getByLabel('Account type').selectOption('SPARK_WALLET')
    await form.getByLabel('Spark address').fill(SPARK)
  })
  await shot('prism-accounts-created')
})
