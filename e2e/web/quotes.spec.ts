import { expect, nav, test, type Page } from '../support/browser-mode'
import { fillQuoteForm } from '../support/quote-form'
import { withStandaloneProfile } from '../support/standalone-sandbox'

/** The operator fills the quote form: platform USD to Carlos García's MXN account (CLABE …0011), 100.00 USD sent. */
async function askForQuote(page: Page, fromAccount = false): Promise<void> {
  if (fromAccount) {
    // Internal accounts → the platform USD account → "Get a quote" opens Quotes with that account chosen.
    await nav(page, 'Internal accounts')
    await page
      .getByRole('table', { name: 'Balances' })
      .getByRole('row')
      .filter({ hasText: /^Platform/ })
      .filter({ has: page.getByRole('cell', { name: 'USD', exact: true }) })
      .click()
    await page.getByTestId('internal-account-detail').getByRole('button', { name: 'Get a quote' }).click()
    await expect(page.getByRole('heading', { name: 'Quotes', level: 1 })).toBeVisible()
    await expect(page.getByLabel('From internal account').locator('option:checked')).toHaveText(/^Platform · USD · /)
  } else await nav(page, 'Quotes')
  await fillQuoteForm(page, '100.00')
}

test('quote, review, expiry, new quote, execute, completed', async ({ page, app, shot }) => {
  test.setTimeout(120_000)
  // Time scale 0.05: the sandbox's 5-minute quote expiry becomes 15 s.
  await withStandaloneProfile(page, app.url, { name: 'Quotes sandbox' }, async (sandbox) => {
    await askForQuote(page)

    const review = page.getByRole('group', { name: 'Review quote' })
    await expect(review.locator('.review-amount')).toHaveText('$100.00')
    // 9 990 cents at 0.055 USD per MXN, fees of $0.10 included.
    await expect(review).toContainText('They receive')
    await expect(review).toContainText('1,816.36')
    await expect(review.getByTestId('quote-fee')).toHaveText('$0.10')
    // What leaves the account in all (the fee is inside it) and what stays.
    await expect(review.getByTestId('quote-total')).toHaveText('$100.00')
    await expect(review.getByTestId('quote-balance-after')).toContainText(/^\$[\d,]+\.\d{2} of \$[\d,]+\.\d{2} now$/)
    await expect(review.getByTestId('quote-standing')).toHaveText('Quote · Ready to execute')
    await expect(review).toContainText('1 MXN = 0.055 USD')
    const timer = review.getByRole('timer', { name: 'Time left on this quote' })
    await expect(timer).toHaveText(/expires in 0:\d\d/)
    await shot('quote-review')

    // Left alone, the quote expires: it can no longer be executed, and a new one is offered.
    await expect(timer).toHaveText(/expired/, { timeout: 30_000 })
    await expect(review.getByRole('button', { name: /^Execute/ })).toHaveCount(0)
    await expect(review.getByRole('alert')).toContainText('This quote expired')
    await shot('quote-expired')

    await review.getByRole('button', { name: 'Get a new quote' }).click()
    const fresh = page.getByRole('group', { name: 'Review quote' })
    await expect(fresh.getByRole('timer', { name: 'Time left on this quote' })).toHaveText(/expires in/)
    await fresh.getByRole('button', { name: 'Execute: send $100.00' }).click()
    await expect(fresh.getByRole('status', { name: 'Quote executed' })).toBeVisible({ timeout: 30_000 })
    // Followed live until it settles.
    await expect(fresh.getByTestId('quote-payment-status')).toHaveText('COMPLETED', { timeout: 60_000 })
    // Executed, the quote says its payment's status, never "ready" beside it.
    await expect(fresh.getByTestId('quote-standing')).toHaveText('Quote · Quote payment completed')
    await expect(page.getByRole('table', { name: 'Quotes executed from this Paydesk' })).toContainText('Known')
    await shot('quote-executed-completed')

    const outgoing = (await sandbox.api('GET', '/transactions?type=OUTGOING&limit=100')) as {
      data: Array<{ status: string; quoteId?: string; sentAmount: { amount: number } }>
    }
    // The sandbox's seeded history has quotes too: these are the two of this flow ($100.00 each).
    const fromQuotes = outgoing.data.filter((t) => t.quoteId && t.sentAmount.amount === 10_000)
    expect(fromQuotes.map((t) => t.status).sort()).toEqual(['COMPLETED', 'EXPIRED'])
  })
})

test('sandbox tools send funds against an open quote (Local sandbox)', async ({ page, app, shot }) => {
  test.setTimeout(90_000)
  await page.goto(app.url)
  await askForQuote(page, true)
  const review = page.getByRole('group', { name: 'Review quote' })
  await expect(review.getByRole('button', { name: 'Execute: send $100.00' })).toBeVisible()
  const quoteId = (await review.locator('[title^="Quote:"]').first().getAttribute('title')) ?? ''
  expect(quoteId).toMatch(/^Quote:/)

  await nav(page, 'Sandbox tools')
  const panel = page.getByRole('region', { name: 'Send funds against a quote' })
  await expect(panel.getByLabel('Open quote').locator('option')).toHaveCount(1)
  await expect(panel.getByLabel('Open quote')).toContainText(quoteId)
  await panel.getByRole('button', { name: 'Send funds' }).click()
  await expect(panel.getByRole('status')).toContainText('Funds sent')
  await expect(panel).toContainText(/PROCESSING|COMPLETED/)
  // The executed quote is no longer open.
  await expect(panel).toContainText('No open quote')
  await shot('sandbox-send-against-quote')
})
