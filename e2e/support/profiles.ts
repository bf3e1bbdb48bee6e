import type { Page } from '@playwright/test'

export interface NewProfile {
  name: string
  /** Left as the form offers it when absent. */
  environment?: 'sandbox' | 'production'
  baseUrl: string
  tokenId: string
  clientSecret: string
}

/** The operator opens Settings and adds a profile; what the page says afterwards is the caller's to check. */
export async function addProfileInSettings(page: Page, profile: NewProfile): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: /^Settings/ })
    .click()
  await page.getByLabel('Name').fill(profile.name)
  // Before the address: choosing an environment may offer its own.
  if (profile.environment) await page.getByLabel('Environment').selectOption(profile.environment)
  await page.getByLabel('Base URL').fill(profile.baseUrl)
  await page.getByLabel('API token id').fill(profile.tokenId)
  await page.getByLabel('API client secret').fill(profile.clientSecret)
  await page.getByRole('button', { name: 'Add profile' }).click()
}
