import AxeBuilder from '@axe-core/playwright'
import { expect, invoke, test, type Page } from '../support/browser-mode'
import { fillQuoteForm } from '../support/quote-form'
import { payJaneFromPlatformUsd } from '../support/send-money'

/** What a scan found that counts: serious and critical violations only (the bar). */
interface Finding {
  where: string
  rule: string
  impact: string
  targets: string[]
  summary: string
}

/** What the scan reads of the DOM's animations (the e2e tsconfig has no DOM types). */
interface Animated {
  getAnimations(options: { subtree: boolean }): Array<{
    playState: string
    finished: Promise<unknown>
    effect: { getComputedTiming(): { endTime?: unknown } } | null
  }>
}

async function scan(page: Page, where: string, findings: Finding[]): Promise<void> {
  // Contrast is measured on the final colours: once no part still waits for its first answer (the skeletons say so
  // with aria-busy) and every transition that ends has ended. A fixed pause raced both on a loaded machine.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 })
  await page.locator('body').evaluate((body) => {
    const running = (body as unknown as Animated)
      .getAnimations({ subtree: true })
      .filter((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime))
      .map((a) => a.finished.catch(() => undefined))
    // A transition lasts a fraction of a second: one still running after 5 s is not one the scan should wait for.
    return Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, 5_000))])
  })
  const started = Date.now()
  const result = await new AxeBuilder({ page }).analyze()
  console.log(`axe ${where}: ${result.violations.length} rule(s) violated, ${Date.now() - started} ms`)
  for (const v of result.violations) {
    console.log(`  ${v.impact} ${v.id}: ${v.nodes.length} node(s), e.g. ${v.nodes[0]?.target.join(' ')}`)
    if (v.impact !== 'serious' && v.impact !== 'critical') continue
    findings.push({
      where,
      rule: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      summary: v.nodes[0]?.failureSummary?.split('\n').slice(0, 3).join(' ') ?? v.help
    })
  }
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sections' })

/** The sections the sidebar offers right now: screens other parts of Paydesk add are scanned too. */
async function sections(page: Page): Promise<string[]> {
  const labels = await sidebar(page).locator('.nav-label').allTextContents()
  expect(labels.length).toBeGreaterThan(3)
  return labels
}

async function openSection(page: Page, label: string) {
  await sidebar(page)
    .getByRole('button', { name: new RegExp(`^${label}`) })
    .click()
  await expect(sidebar(page).getByRole('button', { name: new RegExp(`^${label}`) })).toHaveAttribute(
    'aria-current',
    'page'
  )
}

/** Opens the first row of the screen's main table (its detail), when the screen has one. */
async function openFirstRow(page: Page): Promise<boolean> {
  const rows = page.locator('main [role="table"] [role="row"], main table tbody tr')
  if ((await rows.count()) === 0) return false
  const first = page.locator('main [role="table"] [role="rowgroup"] [role="row"], main table tbody tr').first()
  if (!(await first.isVisible().catch(() => false))) return false
  await first.click()
  return true
}

async function clickIfPresent(page: Page, name: string | RegExp): Promise<boolean> {
  const button = page.getByRole('button', { name, exact: typeof name === 'string' }).first()
  if (!(await button.isVisible().catch(() => false))) return false
  await button.click()
  return true
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe: every screen and dialog in the ${theme} theme has no serious or critical violation`, async ({
    page,
    app,
    shot
  }) => {
    test.setTimeout(600_000)
    // The theme comes from the Appearance setting, with the operating system saying the other one: the pass scans the
    // theme the operator chose, whatever the system says.
    await page.emulateMedia({ colorScheme: theme === 'light' ? 'dark' : 'light' })
    await invoke(app, 'appearance.set', { theme, timeZone: 'local' })
    await page.goto(app.url)
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    await expect(sidebar(page)).toBeVisible()
    const findings: Finding[] = []

    for (const label of await sections(page)) {
      await openSection(page, label)
      await scan(page, `${label} screen`, findings)
      await shot(`axe-${theme}-${label.replace(/\W+/g, '-').toLowerCase()}`)
      if (await openFirstRow(page)) {
        await scan(page, `${label} detail`, findings)
        await shot(`axe-${theme}-${label.replace(/\W+/g, '-').toLowerCase()}-detail`)
      }
    }

    // The forms and dialogs an operator opens.
    await openSection(page, 'External accounts')
    if (await clickIfPresent(page, 'Add external account')) {
      await scan(page, 'Add external account form', findings)
      await page.getByRole('button', { name: 'Cancel', exact: true }).click()
    }
    await page
      .getByRole('table', { name: 'External accounts' })
      .getByRole('row', { name: /Jane Smith.*…9012/ })
      .click()
    await page.getByTestId('external-account-detail').getByRole('button', { name: 'Edit…' }).click()
    await scan(page, 'Edit external account form', findings)
    await shot(`axe-${theme}-edit-account`)
    await page.getByRole('button', { name: 'Cancel', exact: true }).click()

    await openSection(page, 'Customers')
    if (await clickIfPresent(page, 'New customer')) {
      await scan(page, 'New customer form', findings)
      await page.keyboard.press('Escape')
    }

    await openSection(page, 'Internal accounts')
    if (await clickIfPresent(page, 'Send money')) {
      const pane = page.getByTestId('send-money')
      await scan(page, 'Send money form', findings)
      await payJaneFromPlatformUsd(pane)
      await pane.getByLabel('Amount').fill('12.34')
      await pane.getByRole('button', { name: 'Review payment' }).click()
      await expect(pane.getByRole('group', { name: 'Review payment' })).toBeVisible()
      await scan(page, 'Send money review', findings)
      await shot(`axe-${theme}-send-review`)
    }

    await openSection(page, 'Quotes')
    await fillQuoteForm(page, '10.00')
    await expect(page.getByRole('group', { name: 'Review quote' })).toBeVisible()
    await scan(page, 'Quote review', findings)
    await shot(`axe-${theme}-quote-review`)

    // Approvals: each of the gate's tabs, and the rule editor with a rule in it (no gate: its link form was scanned).
    await openSection(page, 'Approvals')
    for (const tab of ['Decisions', 'Pre-approvals', 'Receiver information', 'Rules']) {
      const button = page.getByRole('tab', { name: tab })
      if (!(await button.isVisible().catch(() => false))) break
      await button.click()
      if (tab === 'Rules') await clickIfPresent(page, 'Add a rule')
      await scan(page, `Approvals ${tab}`, findings)
      await shot(`axe-${theme}-approvals-${tab.replace(/\W+/g, '-').toLowerCase()}`)
    }

    // Settings: a profile's connection test told in the form, and the question before saving values that failed it.
    await openSection(page, 'Settings')
    const addProfile = page.getByRole('form', { name: 'Add a profile' })
    await addProfile.getByLabel('Name').fill('Unreachable')
    // A loopback port where nothing listens: the test fails at once, on this machine.
    await addProfile.getByLabel('Base URL').fill('http://127.0.0.1:9/2025-10-13')
    await addProfile.getByLabel('API token id').fill('token-id')
    await addProfile.getByLabel('API client secret').fill('a-secret')
    await addProfile.getByRole('button', { name: 'Test connection' }).click()
    await expect(addProfile.getByTestId('draft-connection-result')).toContainText('✗')
    await addProfile.getByRole('button', { name: 'Add profile' }).click()
    await expect(addProfile.getByRole('button', { name: 'Save anyway' })).toBeVisible()
    await scan(page, 'Profile connection test and Save anyway', findings)
    await shot(`axe-${theme}-profile-save-anyway`)
    await addProfile.getByRole('button', { name: 'Keep editing' }).click()

    await page.locator('body').press('Control+k')
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible()
    await scan(page, 'Command palette', findings)
    await shot(`axe-${theme}-palette`)
    await page.keyboard.press('Escape')

    const report = findings.map((f) => `${f.where}: ${f.rule} (${f.impact}) at ${f.targets.join(', ')}: ${f.summary}`)
    expect(report, report.join('\n')).toEqual([])
  })
}
