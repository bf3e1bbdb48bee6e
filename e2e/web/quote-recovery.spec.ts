import { expect, nav, test } from '../support/browser-mode'
import { fillQuoteForm } from '../support/quote-form'
import { withStandaloneProfile } from '../support/standalone-sandbox'

test('a quote executed while every answer is lost is Unknown, and "Review and retry" completes it once', async ({
  page,
  app,
  shot
}) => {
  test.setTimeout(120_000)
  // Time scale 0.2: the quote stays open a minute, long enough for the lost attempt and its retries.
  await withStandaloneProfile(
    page,
    app.url,
    { name: 'Faulty sandbox', args: ['--faults', '--time-scale', '0.2'] },
    async (sandbox) => {
      await nav(page, 'Quotes')
      await fillQuoteForm(page, '432.10')
      const review = page.getByRole('group', { name: 'Review quote' })
      const quoteId = (await review.locator('[title^="Quote:"]').first().getAttribute('title')) ?? ''
      expect(quoteId).toMatch(/^Quote:/)

      const usdBalance = async () =>
        (
          (await sandbox.api('GET', '/platform/internal-accounts?currency=USD')) as {
            data: Array<{ balance: { amount: number } }>
          }
        ).data[0]!.balance.amount
      const before = await usdBalance()

      // From now on every request takes effect on the service, but every answer is lost on the way back.
      await sandbox.api('POST', '/__faults', { route: '*', kind: 'commitThenDrop' })
      await review.getByRole('button', { name: 'Execute: send $432.10' }).click()
      await expect(review.getByRole('alert')).toContainText('Outcome unknown', { timeout: 60_000 })
      const journal = page.getByRole('table', { name: 'Quotes executed from this Paydesk' })
      const row = journal.getByRole('row', { name: /Unknown/ })
      await expect(row.getByRole('button', { name: 'Review and retry' })).toBeVisible()
      // The form still holds the same request: no new quote for it while this execution is Unknown.
      await expect(page.getByRole('note')).toContainText('has no known outcome yet')
      await expect(page.getByRole('button', { name: 'Get a quote' })).toBeDisabled()
      await shot('quote-outcome-unknown')

      // The connection is healthy again; the operator reviews and retries the same action.
      await sandbox.api('DELETE', '/__faults')
      await review.getByRole('button', { name: 'Close quote' }).click()
      await row.getByRole('button', { name: 'Review and retry' }).click()
      const resumed = page.getByRole('group', { name: 'Review quote' })
      await resumed.getByRole('button', { name: 'Review and retry: send $432.10' }).click()
      await expect(resumed.getByRole('status', { name: 'Quote executed' })).toBeVisible({ timeout: 30_000 })
      await expect(journal).toContainText('Known')
      await expect(journal.getByRole('button', { name: 'Review and retry' })).toHaveCount(0)
      await expect(page.getByRole('button', { name: 'Get a quote' })).toBeEnabled()
      await shot('quote-recovered')

      const quote = (await sandbox.api('GET', `/quotes/${quoteId}`)) as { status: string; transactionId: string }
      expect(quote.status).toMatch(/PROCESSING|COMPLETED/)
      const ledger = (await sandbox.api('GET', '/transactions?type=OUTGOING&limit=100')) as {
        data: Array<{ id: string; quoteId?: string; status: string }>
      }
      // Exactly one payment came of it, and it is the quote's.
      const mine = ledger.data.filter((t) => t.quoteId === quoteId)
      expect(mine.map((t) => t.id)).toEqual([quote.transactionId])
      // The money left the account once: $432.10, fees included.
      expect(await usdBalance()).toBe(before - 43_210)
    }
  )
})
