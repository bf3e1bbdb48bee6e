import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, startBrowserMode, test } from '../support/browser-mode'

test('a damaged profile list is set aside and the operator is told at once, until they have read it', async ({
  page,
  shot
}) => {
  const first = await startBrowserMode({ keepData: true })
  await first.stop()
  writeFileSync(join(first.dataDir, 'profiles.json'), '{"version":1,"profiles":[')
  const app = await startBrowserMode({ dataDir: first.dataDir })
  try {
    await page.goto(app.url)
    const banner = page.getByRole('region', { name: 'Problems Paydesk found' })
    // Keychain entries of other Paydesk data folders on this machine may be reported too: this test reads its own notice.
    const notice = banner.getByRole('alert').filter({ hasText: 'The list of profiles was damaged.' })
    await expect(notice).toBeVisible()
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
