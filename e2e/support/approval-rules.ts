import { expect, type Page } from '@playwright/test'

/** On the Approvals screen, turns automatic approval on with one ceiling (`amount` in `currency`), as the operator does. */
export async function saveCeilingRule(page: Page, currency: string, amount: string): Promise<void> {
  await page.getByRole('tab', { name: 'Approval rules' }).click()
  await page.getByLabel('Approve automatically when the rules hold').check()
  await page.getByRole('button', { name: 'Add a ceiling' }).click()
  await page.getByLabel('Currency 1', { exact: true }).fill(currency)
  await page.getByLabel('Ceiling 1', { exact: true }).fill(amount)
  await page.getByRole('button', { name: 'Save rules' }).click()
  await expect(page.getByText('Rules saved and on.')).toBeVisible()
}
