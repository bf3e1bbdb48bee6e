import type { Locator, Page } from '@playwright/test'
import { expect, FIRST_SYNC_MS } from './browser-mode'

// Send money as the specs fill it: the platform's USD account pays Jane Smith's US bank account (both in the demo data
// of every sandbox the specs start), and the amount is each spec's own.

/** Opens the form from the Internal accounts view; the pane, for the spec's next steps. */
export async function openSendMoney(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Send money', exact: true }).click()
  return page.getByTestId('send-money')
}

/**
 * Chooses the platform's USD account and Jane Smith's US account. Held until the USD account is offered: a profile just
 * added lists its accounts after its first sync, and choosing before would pick nothing.
 */
export async function payJaneFromPlatformUsd(pane: Locator): Promise<void> {
  const from = pane.getByLabel('From internal account')
  const usd = from.locator('option', { hasText: /^Platform · USD · / })
  await expect(usd).toHaveCount(1, { timeout: FIRST_SYNC_MS })
  await from.selectOption({ label: (await usd.textContent()) ?? '' })
  await pane.getByLabel('To external account').selectOption({ label: 'Jane Smith · US bank account …9012' })
}
