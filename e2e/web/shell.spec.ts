import { expect, sectionButton, test } from '../support/browser-mode'
import { addProfileInSettings } from '../support/profiles'

test('the shell shows the Local sandbox profile, navigation and a live connection', async ({ page, app, shot }) => {
  await page.goto(app.url)
  await expect(page).toHaveURL(`${app.origin}/`) // the token leaves the address bar at once
  const bar = page.getByTestId('profile-bar')
  await expect(bar.getByRole('combobox', { name: 'Active profile' })).toHaveValue('local')
  await expect(bar.getByTestId('environment-chip')).toHaveText('Local sandbox')
  for (const section of [
    'Home',
    'Approvals',
    'Transactions',
    'Customers',
    'External accounts',
    'Internal accounts',
    'Quotes',
    'Sandbox tools',
    'Settings'
  ]) {
    await expect(sectionButton(page, section)).toBeVisible()
  }
  await expect(page.locator('.production-band')).toHaveCount(0)

  await page.getByTestId('connection-panel').getByRole('button', { name: 'Test connection' }).click()
  await expect(page.getByTestId('connection-result')).toContainText('✓')
  await shot('shell-local-sandbox')
})

test('a production profile looks unmistakably different', async ({ page, app, shot }) => {
  await page.goto(app.url)
  await addProfileInSettings(page, {
    name: 'Acme live',
    environment: 'production',
    // Tests never reach outside this machine: a loopback port where nothing listens stands in for the real service.
    baseUrl: 'http://127.0.0.1:9/2025-10-13',
    tokenId: 'prod-token-id',
    clientSecret: 'prod-secret-value'
  })
  await expect(page.getByText('Added “Acme live”.')).toBeVisible()

  await page
    .getByRole('row', { name: /Acme live/ })
    .getByRole('button', { name: 'Switch to' })
    .click()
  await expect(page.getByTestId('environment-chip')).toHaveText('PRODUCTION')
  await expect(page.getByRole('status', { name: 'Production profile: real money' })).toBeVisible()
  await expect(sectionButton(page, 'Sandbox tools')).toHaveCount(0)
  await shot('shell-production')

  // The secret went to the keychain; the page can only learn that one is set.
  expect(await page.content()).not.toContain('prod-secret-value')
})

test('a form refuses bad input with the shared schema’s message and changes nothing', async ({ page, app }) => {
  await page.goto(app.url)
  await page.getByRole('button', { name: /^Settings/ }).click()
  await page.getByLabel('Base URL').fill('ftp://example.com')
  await page.getByRole('button', { name: 'Add profile' }).click()
  await expect(page.getByText('Give the profile a name')).toBeVisible()
  await expect(page.getByText(/Base URL must start with https:\/\//)).toBeVisible()
  await expect(page.getByRole('table', { name: 'Profiles' }).getByRole('row')).toHaveCount(2) // header + Local sandbox
})

test('a profile can be renamed and repointed; a bad base URL is refused and changes nothing', async ({ page, app }) => {
  await page.goto(app.url)
  await page.getByRole('button', { name: /^Settings/ }).click()
  await page.getByLabel('Name').fill('Team sandbox')
  await page.getByLabel('Base URL').fill('http://127.0.0.1:9/2025-10-13')
  await page.getByLabel('API token id').fill('team-token')
  await page.getByRole('button', { name: 'Add profile' }).click()
  await page
    .getByRole('row', { name: /Team sandbox/ })
    .getByRole('button', { name: 'Edit…' })
    .click()

  const edit = page.getByRole('form', { name: 'Edit Team sandbox' })
  await edit.getByLabel('Base URL').fill('not a url')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit.getByText(/Base URL must be a full URL/)).toBeVisible()
  await expect(page.getByRole('row', { name: /Team sandbox/ })).toContainText('http://127.0.0.1:9/2025-10-13')

  await edit.getByLabel('Base URL').fill('http://127.0.0.1:10/2025-10-13')
  await edit.getByLabel('Name').fill('Team sandbox EU')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByRole('row', { name: /Team sandbox EU/ })).toContainText('http://127.0.0.1:10/2025-10-13')
  await expect(
    page.getByRole('combobox', { name: 'Active profile' }).locator('option', { hasText: 'Team sandbox EU' })
  ).toHaveCount(1)
})

test('repointing a profile removes its secret, and changing its environment asks first', async ({ page, app }) => {
  await page.goto(app.url)
  await addProfileInSettings(page, {
    name: 'Ops sandbox',
    baseUrl: 'http://127.0.0.1:9/2025-10-13',
    tokenId: 'ops-token',
    clientSecret: 'ops-secret-value'
  })
  const row = page.getByRole('row', { name: /Ops sandbox/ })
  await expect(row).toContainText('In keychain')

  await row.getByRole('button', { name: 'Edit…' }).click()
  const edit = page.getByRole('form', { name: 'Edit Ops sandbox' })
  await edit.getByLabel('Base URL').fill('http://api.example.com/2025-10-13')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit.getByText(/Plain http:\/\/ is allowed only for a server on this machine/)).toBeVisible()

  await edit.getByLabel('Base URL').fill('http://127.0.0.1:10/2025-10-13')
  await expect(edit.getByRole('note')).toContainText('Saving removes the stored client secret')
  await edit.getByLabel('Environment').selectOption('production')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit.getByRole('alert')).toContainText('would change from sandbox to production')
  await expect(row).toContainText('sandbox')
  await expect(row).toContainText('In keychain') // nothing changed yet
  await edit.getByRole('button', { name: 'Change to production' }).click()
  await expect(row).toContainText('production')
  await expect(row).toContainText('http://127.0.0.1:10/2025-10-13')
  await expect(row).toContainText('Not set')
})

test('a second Paydesk on the same data folder refuses to start and says why', async ({ app }) => {
  const { spawnSync } = await import('node:child_process')
  const second = spawnSync(process.execPath, ['out/main/web.js', '--port', '0', '--data-dir', app.dataDir], {
    cwd: new URL('../..', import.meta.url).pathname,
    encoding: 'utf8',
    timeout: 30_000
  })
  expect(second.status).toBe(1)
  expect(second.stderr).toMatch(/Another Paydesk \(process \d+\) is already using/)
})
