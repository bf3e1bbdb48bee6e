import { chord, expect, nav, sectionButton, test } from '../support/browser-mode'

/** "$12,345.67 USD" → 1234567 (minor units, read from digits only). */
const cents = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''))

test('sandbox: funding an internal account changes its balance by exactly the amount', async ({ page, app, shot }) => {
  await page.goto(app.url)
  await nav(page, 'Internal accounts')
  const usdBalance = page
    .getByRole('table', { name: 'Balances' })
    .getByRole('row')
    .filter({ hasText: /^Platform/ })
    .filter({ has: page.getByRole('cell', { name: 'USD', exact: true }) })
    .locator('td.num')
  await expect(usdBalance).toHaveText(/\d/)
  const before = cents(await usdBalance.textContent())

  await nav(page, 'Sandbox tools')
  const fund = page.getByRole('form', { name: 'Fund an internal account' })
  const account = fund.getByLabel('Internal account')
  await account.selectOption({
    label: (await account.locator('option', { hasText: /^Platform · USD · / }).textContent()) ?? ''
  })
  await fund.getByLabel('Amount to add').fill('1,234.56')
  await expect(fund.getByText('= $1,234.56')).toBeVisible()
  await fund.getByRole('button', { name: 'Add $1,234.56 to the platform USD account' }).click()
  await expect(fund.getByTestId('funded-balance')).toBeVisible()
  expect(cents(await fund.getByTestId('funded-balance').textContent())).toBe(before + 123456)
  await shot('sandbox-funded')

  await nav(page, 'Internal accounts')
  await expect.poll(async () => cents(await usdBalance.textContent())).toBe(before + 123456)
})

test('sandbox: funding above the sandbox limit is refused before anything is sent', async ({ page, app }) => {
  await page.goto(app.url)
  await nav(page, 'Sandbox tools')
  const fund = page.getByRole('form', { name: 'Fund an internal account' })
  await fund.getByLabel('Amount to add').fill('1000000000.01') // 100000000001 minor units of USD
  await fund.getByRole('button', { name: /^Add / }).click()
  await expect(
    fund.getByText(/Sandbox funding is at most \$1,000,000,000\.00 \(100,000,000,000 minor units\)/)
  ).toBeVisible()
})

test('sandbox: simulate an incoming payment from a test sender to a customer', async ({ page, app, shot }) => {
  await page.goto(app.url)
  await nav(page, 'Sandbox tools')
  const receive = page.getByRole('form', { name: 'Simulate an incoming payment' })
  const sender = receive.getByLabel('Test sender')
  await expect(sender.locator('option')).toHaveText([
    /\$success\.usd@sandbox\.uma\.money/,
    /\$success\.eur@sandbox\.uma\.money/,
    /\$success\.mxn@sandbox\.uma\.money/,
    /\$pending\.long\.usd@sandbox\.uma\.money/,
    /\$fail\.compliance\.usd@sandbox\.uma\.money/
  ])
  await receive.getByLabel('Receiving customer').selectOption({ label: 'Jane Smith (cust-jane-smith)' })
  await receive.getByLabel('Amount received').fill('25')
  await receive.getByRole('button', { name: 'Receive $25.00 for Jane Smith' }).click()
  const result = receive.getByRole('status', { name: 'Simulated payment' })
  await expect(result).toContainText('Payment created')
  await expect(result.getByText(/^Transaction:/)).toBeVisible()
  await shot('sandbox-received')
})

test('sandbox: a production profile has no sandbox tools', async ({ page, app }) => {
  await page.route('**/__paydesk/invoke/profiles.list', async (route) => {
    const response = await route.fetch()
    const body = await response.json()
    for (const p of body.value.profiles) p.environment = 'production'
    await route.fulfill({ response, json: body })
  })
  await page.goto(app.url)
  await expect(sectionButton(page, 'Sandbox tools')).toHaveCount(0)
  // The keyboard shortcut does not lead there either: Home stays on screen and no test money is offered.
  await page.locator('body').click()
  await chord(page, 'x')
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible()
  await expect(page.getByRole('form', { name: 'Fund an internal account' })).toHaveCount(0)
})
