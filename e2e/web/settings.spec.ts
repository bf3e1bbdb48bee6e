import { expect, test, type Page } from '../support/browser-mode'
import { SANDBOX_CREDENTIALS, startStandaloneSandbox } from '../support/standalone-sandbox'

/** The page's background as drawn: the theme's --bg (light #f7f8fa, dark #0f1115). */
const LIGHT_BG = 'rgb(247, 248, 250)'
const DARK_BG = 'rgb(15, 17, 21)'

/** Waits for the page's background to be drawn in a theme. */
const painted = (page: Page, color: string) => expect(page.locator('html')).toHaveCSS('background-color', color)

async function openSettings(page: Page) {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: /^Settings/ })
    .click()
  await expect(page.getByRole('heading', { name: 'Appearance' })).toBeVisible()
}

const appearance = (page: Page) => page.getByRole('heading', { name: 'Appearance' }).locator('..')

test('the theme is chosen in Settings, applied at once, and kept after a reload and in a new browser', async ({
  page,
  app,
  browser,
  shot
}) => {
  // The operating system says light: the dark theme must come from the setting alone.
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(app.url)
  await openSettings(page)
  await expect(appearance(page).getByRole('radio', { name: /^System/ })).toBeChecked()
  await painted(page, LIGHT_BG)

  await appearance(page).getByRole('radio', { name: 'Dark' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await painted(page, DARK_BG)
  await shot('settings-theme-dark')

  // Painted dark from the first frame: what the first animation frame (before the first paint) saw is recorded.
  // (A string: the e2e's types have no DOM.)
  await page.addInitScript({
    content: `requestAnimationFrame(() => {
      window.firstFrame = document.documentElement.dataset.theme + ' ' +
        getComputedStyle(document.documentElement).backgroundColor
    })`
  })
  await page.reload()
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible()
  expect(await page.evaluate('window.firstFrame')).toBe(`dark ${DARK_BG}`)
  await openSettings(page)
  await expect(appearance(page).getByRole('radio', { name: 'Dark' })).toBeChecked()
  await shot('settings-theme-dark-after-reload')

  // A browser that never saw this page (nothing kept in it) gets the choice from Paydesk itself.
  const fresh = await browser.newContext({ colorScheme: 'light' })
  try {
    const other = await fresh.newPage()
    await other.goto(app.url)
    await expect(other.locator('html')).toHaveAttribute('data-theme', 'dark')
    await painted(other, DARK_BG)
  } finally {
    await fresh.close()
  }

  // Light, whatever the system says.
  await page.emulateMedia({ colorScheme: 'dark' })
  await appearance(page).getByRole('radio', { name: 'Light' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await painted(page, LIGHT_BG)
  await shot('settings-theme-light-on-dark-system')
})

test('the System theme follows the operating system live', async ({ page, app, shot }) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(app.url)
  await openSettings(page)
  await appearance(page).getByRole('radio', { name: 'Dark' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await appearance(page)
    .getByRole('radio', { name: /^System/ })
    .check()
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/)
  await painted(page, LIGHT_BG)
  await page.emulateMedia({ colorScheme: 'dark' })
  await painted(page, DARK_BG)
  await shot('settings-theme-system-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await painted(page, LIGHT_BG)
})

test.describe('in a browser whose own zone is not UTC', () => {
  // The machine running the tests may itself be on UTC: the page is told another zone, so local and UTC differ.
  test.use({ timezoneId: 'Asia/Kolkata' })

  test('times are shown in UTC when chosen, named as UTC, and kept after a reload', async ({ page, app, shot }) => {
    await page.goto(app.url)
    await openSettings(page)
    const sample = page.getByTestId('time-sample')
    await expect(
      appearance(page).getByRole('radio', { name: /^Local time \(Asia\/(Kolkata|Calcutta)\)$/ })
    ).toBeChecked()
    await expect(sample).toHaveText(/The time now reads \d{2}:\d{2}\sGMT\+5:30\./)

    await appearance(page).getByRole('radio', { name: 'UTC', exact: true }).check()
    await expect(sample).toHaveText(/The time now reads \d{2}:\d{2}\sUTC\./)
    // Every time on the page goes through the same formatter: the connection test's time says UTC too.
    await page.getByTestId('connection-panel').getByRole('button', { name: 'Test connection' }).click()
    await expect(page.getByTestId('connection-result')).toContainText(/checked \d{2}:\d{2}\sUTC/)
    await shot('settings-time-zone-utc')

    await page.reload()
    await openSettings(page)
    await expect(appearance(page).getByRole('radio', { name: 'UTC', exact: true })).toBeChecked()
    await expect(sample).toHaveText(/\d{2}:\d{2}\sUTC\./)
    // The transactions list's hover says the exact time in UTC.
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('button', { name: /^Transactions/ })
      .click()
    await expect(page.locator('main time').first()).toHaveAttribute('title', /\d{2}:\d{2}:\d{2}\sUTC · /, {
      timeout: 40_000
    })
    await shot('transactions-in-utc')

    await openSettings(page)
    await appearance(page)
      .getByRole('radio', { name: /^Local time/ })
      .check()
    await expect(sample).toHaveText(/\d{2}:\d{2}\sGMT\+5:30\./)
  })
})

test('a new profile is tested before it is saved: a wrong secret is told, and saving it asks first', async ({
  page,
  app,
  shot
}) => {
  const sandbox = await startStandaloneSandbox()
  try {
    await page.goto(app.url)
    await openSettings(page)
    const form = page.getByRole('form', { name: 'Add a profile' })
    const result = form.getByTestId('draft-connection-result')
    await form.getByLabel('Name').fill('Team sandbox')
    await form.getByLabel('Base URL').fill(sandbox.baseUrl)
    await form.getByLabel('API token id').fill(SANDBOX_CREDENTIALS.tokenId)

    // A bad secret: the service's refusal in the operator's words, before anything is saved.
    await form.getByLabel('API client secret').fill('not-the-secret')
    await form.getByRole('button', { name: 'Test connection' }).click()
    await expect(result).toContainText(
      /✗ Wrong credentials: 127\.0\.0\.1:\d+ refused the API token id "sandbox-token" or its client secret \(HTTP 401\)\./
    )
    await shot('profile-test-wrong-secret')
    await form.getByRole('button', { name: 'Add profile' }).click()
    const ask = form.getByRole('alert').filter({ hasText: 'failed their connection test' })
    await expect(ask).toContainText('Wrong credentials')
    await shot('profile-save-anyway-asked')
    await ask.getByRole('button', { name: 'Keep editing' }).click()
    await expect(ask).toHaveCount(0)
    await expect(page.getByRole('table', { name: 'Profiles' }).getByRole('row', { name: /Team sandbox/ })).toHaveCount(
      0
    )

    // The right secret: connected, then saved at once.
    await form.getByLabel('API client secret').fill(SANDBOX_CREDENTIALS.clientSecret)
    await expect(result).toBeEmpty()
    await form.getByRole('button', { name: 'Test connection' }).click()
    await expect(result).toContainText(/✓ Connected to 127\.0\.0\.1:\d+ as token sandbox-token in \d+ ms/)
    await shot('profile-test-connected')
    await form.getByRole('button', { name: 'Add profile' }).click()
    await expect(form.getByText('Added “Team sandbox”.')).toBeVisible()
    await expect(
      page.getByRole('table', { name: 'Profiles' }).getByRole('row', { name: /Team sandbox/ })
    ).toContainText('In keychain')

    // Saved anyway, when the operator says so: a profile whose secret the service refused.
    await form.getByLabel('Name').fill('Wrong secret sandbox')
    await form.getByLabel('Base URL').fill(sandbox.baseUrl)
    await form.getByLabel('API token id').fill(SANDBOX_CREDENTIALS.tokenId)
    await form.getByLabel('API client secret').fill('still-not-the-secret')
    await form.getByRole('button', { name: 'Test connection' }).click()
    await expect(result).toContainText('✗ Wrong credentials')
    await form.getByRole('button', { name: 'Add profile' }).click()
    await form.getByRole('button', { name: 'Save anyway' }).click()
    await expect(form.getByText('Added “Wrong secret sandbox”.')).toBeVisible()
    await shot('profile-saved-anyway')

    // The secrets went main-ward only: the page shows neither.
    const html = await page.content()
    expect(html).not.toContain('not-the-secret')
    expect(html).not.toContain(SANDBOX_CREDENTIALS.clientSecret)
  } finally {
    sandbox.stop()
  }
})
