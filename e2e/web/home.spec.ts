import AxeBuilder from '@axe-core/playwright'
import { FIRST_SYNC_MS, expect, invoke, test } from '../support/browser-mode'

// The demo data's completed incoming payments of the last 30 days (src/sandbox/engine/seed.ts): Jane's four in USD (2,500 +
// 1,800 + 3,200 + 950), Amelia's 750 in GBP and Carlos's 15,000 in MXN. The rest did not complete: rejected, timed
// out, failed compliance, seeded CREATED/REFUNDED/EXPIRED/PENDING, or still on its way.
const USD_IN = '$8,450.00 in'
const GBP_IN = '£750.00 in'
const MXN_IN = 'MX$15,000.00 in'

for (const theme of ['light', 'dark'] as const) {
  test(`Home charts the 30 days per currency from the cache, and its failed count opens the failed list (${theme})`, async ({
    page,
    app,
    shot
  }) => {
    await invoke(app, 'appearance.set', { theme, timeZone: 'utc' })
    await page.goto(app.url)
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)

    // Each currency has its own chart and its own sums: USD is never added to GBP or MXN.
    const volume = page.getByTestId('home-volume')
    await expect(volume.getByTestId('home-volume-USD-summary')).toContainText(USD_IN, { timeout: FIRST_SYNC_MS })
    await expect(volume.getByTestId('home-volume-GBP-summary')).toContainText(GBP_IN)
    await expect(volume.getByTestId('home-volume-MXN-summary')).toContainText(MXN_IN)
    await expect(volume.locator('.home-chart canvas').first()).toBeVisible()
    await shot(`home-${theme}-charts`)
    // The text alternative lists every day, a day without payments as 0.
    const usd = volume.getByTestId('home-volume-USD')
    await usd.getByText('Every day as a table').click()
    await expect(usd.locator('tbody tr')).toHaveCount(30)
    await expect(usd.locator('tbody td', { hasText: '$0.00' }).first()).toBeVisible()
    await expect(usd.locator('tbody td', { hasText: '$3,200.00' })).toHaveCount(1)

    // Balances per currency of the platform's accounts, ending at today's balance.
    const balances = page.getByTestId('home-balance-history')
    await expect(balances.getByTestId('home-balance-USD-summary')).toContainText('now')
    await expect(balances.locator('[data-testid^="home-balance-"][data-testid$="-summary"]')).not.toHaveCount(0)

    const failed = page.getByTestId('home-failed')
    await expect(failed).toHaveText(/^[1-9]\d* failed payments? in the last 30 days$/)
    const count = Number((await failed.textContent())!.split(' ')[0])

    const axe = await new AxeBuilder({ page }).include('main').analyze()
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await shot(`home-${theme}`)

    // The count opens Transactions filtered to what it counted: FAILED, last 30 days, as many rows.
    await failed.click()
    await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible()
    await expect(page.getByText('Status: FAILED')).toBeVisible()
    await expect(page.locator('.list-meta').first()).toContainText(`${count} transaction`)
    const statuses = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr td:nth-child(1)')
    await expect(statuses).toHaveCount(count)
    for (const status of await statuses.allTextContents()) expect(status).toContain('FAILED')
    await shot(`home-${theme}-failed-list`)
  })
}
