import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, type Page, startBrowserMode, test } from '../support/browser-mode'

/** Browser mode started again on the data folder a first run left, once `damage` has spoiled something in it. */
async function startOnDamaged(damage: (dataDir: string) => void) {
  const first = await startBrowserMode({ keepData: true })
  await first.stop()
  damage(first.dataDir)
  return startBrowserMode({ dataDir: first.dataDir })
}

/**
 * Opens Paydesk and finds the notice of what it found that says `text`. Keychain entries of other Paydesk data folders
 * on this machine may be reported too: a test reads its own notice.
 */
async function noticeSaying(page: Page, url: string, text: string) {
  await page.goto(url)
  const banner = page.getByRole('region', { name: 'Problems Paydesk found' })
  const notice = banner.getByRole('alert').filter({ hasText: text })
  await expect(notice).toBeVisible()
  return notice
}

test('a damaged profile list is set aside and the operator is told at once, until they have read it', async ({
  page,
  shot
}) => {
  const app = await startOnDamaged((dataDir) =>
    writeFileSync(join(dataDir, 'profiles.json'), '{"version":1,"profiles":[')
  )
  try {
    const notice = await noticeSaying(page, app.url, 'The list of profiles was damaged.')
    await expect(notice).toContainText('What to do: Add the profiles again in Settings')
    await expect(notice).toContainText(/Kept as .*profiles\.json\.corrupt-/)
    await shot('damage-banner')
    // It stays on every view until read.
    await page.getByRole('button', { name: /^Transactions/ }).click()
    await expect(notice).toBeVisible()
    await notice.getByRole('button', { name: 'I have read this' }).click()
    await expect(notice).toHaveCount(0)
    await page.reload()
    await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible()
    await expect(page.getByText('The list of profiles was damaged.')).toHaveCount(0)
  } finally {
    await app.stop()
  }
})

test('a folder where the app settings should be: Paydesk starts, sets it aside and says so', async ({ page, shot }) => {
  const app = await startOnDamaged((dataDir) => {
    const settings = join(dataDir, 'app-settings.json')
    rmSync(settings, { recursive: true, force: true })
    mkdirSync(settings)
    writeFileSync(join(settings, 'inside'), 'kept')
  })
  try {
    const notice = await noticeSaying(page, app.url, 'The app settings were damaged')
    await expect(notice).toContainText('a folder where a file should be')
    await expect(notice).toContainText(/Kept as .*app-settings\.json\.unreadable-/)
    await shot('damage-app-settings')
    // The profile works: its list answers.
    await page.getByRole('button', { name: /^Transactions/ }).click()
    await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible()
  } finally {
    await app.stop()
  }
})
