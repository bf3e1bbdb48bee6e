import { expect, type Page } from '@playwright/test'

/**
 * On the Quotes screen, asks for a quote as the operator does: the platform's USD account pays Carlos García's MXN
 * account (CLABE …0011), `amount` USD sent.
 */
export async function fillQuoteForm(page: Page, amount: string): Promise<void> {
  const from = page.getByLabel('From internal account')
  await expect(from.locator('option', { hasText: /^Platform · USD · / })).toHaveCount(1)
  await from.selectOption({
    label: (await from.locator('option', { hasText: /^Platform · USD · / }).textContent()) ?? ''
  })
  const to = page.getByLabel('To external account')
  const mxn = to.locator('option', { hasText: /…0011 · MXN$/ })
  await expect(mxn).toHaveCount(1)
  await to.selectOption((await mxn.getAttribute('value')) ?? '')
  await page.getByLabel('Amount to send').fill(amount)
  await page.getByRole('button', { name: 'Get a quote' }).click()
}
