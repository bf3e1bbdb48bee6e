import { expect, type Locator, type Page } from '@playwright/test'
import { FIRST_SYNC_MS, invoke, nav, type BrowserModeApp } from './browser-mode'

/**
 * The Local profile's own approval gate, as the e2e specs use it: Paydesk starts it beside the Local sandbox and points
 * the sandbox's webhookEndpoint at it, so a simulated payment goes through the real protocol (signed webhook → gate →
 * rule, prompt or fallback). Set-up that is not the flow under test goes through the bridge, as `invoke` says.
 */

interface SeedCustomer {
  id: string
  fullName?: string
  platformCustomerId?: string
}

/**
 * A seeded customer by its platform id, once the first sync has put it in the cache. Ivan Petrov's record has no birth
 * date, so the sandbox's senders ask for BIRTH_DATE (mandatory) on payments to him; Jane Smith's record has all they
 * ask, so her payments request nothing.
 */
export async function seedCustomer(app: BrowserModeApp, platformCustomerId: string): Promise<SeedCustomer> {
  let found: SeedCustomer | undefined
  await expect
    .poll(
      async () => {
        const window = (await invoke(app, 'customers.query', { limit: 100 })) as { rows: SeedCustomer[] }
        found = window.rows.find((c) => c.platformCustomerId === platformCustomerId)
        return found !== undefined
      },
      { message: `${platformCustomerId} in the Local sandbox`, timeout: FIRST_SYNC_MS, intervals: [200] }
    )
    .toBe(true)
  return found!
}

/**
 * A customer the service has no birth date for (KYC APPROVED, as the sandbox gives any name without a test suffix): the
 * sandbox's senders then request BIRTH_DATE (mandatory) in the approval webhook, which only the gate can answer.
 */
export const RECEIVER_WITHOUT_BIRTH_DATE = {
  customerType: 'INDIVIDUAL',
  region: 'US',
  platformCustomerId: 'cust-rosa-diaz',
  fullName: 'Rosa Diaz',
  nationality: 'US'
} as const

export async function receiverWithoutBirthDate(app: BrowserModeApp): Promise<SeedCustomer> {
  return (await invoke(app, 'customers.create', RECEIVER_WITHOUT_BIRTH_DATE)) as SeedCustomer
}

/** On Approvals, keeps a customer's birth date at the gate from the Receiver information tab, as the operator does. */
export async function keepBirthDate(page: Page, customerName: string, birthDate: string): Promise<void> {
  await page.getByRole('tab', { name: 'Receiver information' }).click()
  await page.getByLabel('Customer', { exact: true }).selectOption({ label: customerName })
  const info = page.getByRole('form', { name: 'Receiver information' })
  await info.getByLabel('Birth date (YYYY-MM-DD)').fill(birthDate)
  await info.getByRole('button', { name: 'Save receiver information' }).click()
  await expect(info.getByText('Saved at the gate.')).toBeVisible()
}

/** On Approvals, saves one rule approving USD payments up to `ceiling`, as the operator does in the rule editor. */
export async function saveApproveRule(page: Page, name: string, ceiling: string): Promise<void> {
  await page.getByRole('tab', { name: 'Rules' }).click()
  await page.getByRole('button', { name: 'Add a rule' }).click()
  await page.getByLabel('Rule 1 name', { exact: true }).fill(name)
  await page.getByLabel('Rule 1 currency 1', { exact: true }).fill('USD')
  await page.getByLabel('Rule 1 ceiling 1', { exact: true }).fill(ceiling)
  await page.getByLabel('Rule 1: then').selectOption('approve')
  await page.getByRole('button', { name: 'Save rules' }).click()
  await expect(page.getByText('Rules saved at the gate (1 rule).')).toBeVisible()
}

/** A payment arriving from a sandbox test sender (the sandbox signs its approval webhook to the Local gate). */
export async function receive(
  app: BrowserModeApp,
  customerId: string,
  amount: number,
  sender = '$success.usd@sandbox.uma.money'
): Promise<{ id: string; status: string }> {
  return (await invoke(app, 'sandbox.receive', {
    senderUmaAddress: sender,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: amount,
    customerId
  })) as { id: string; status: string }
}

/** Opens Approvals and waits for the Local gate's stream to be live (the gate process starts with the sandbox). */
export async function openLiveApprovals(page: Page, app: BrowserModeApp): Promise<void> {
  await page.goto(app.url)
  await nav(page, 'Approvals')
  await expect(page.getByTestId('gate-link-state')).toHaveText('Live', { timeout: FIRST_SYNC_MS })
}

/** The gate's log as main relays it (newest first), for counting entries around something that must add none. */
export async function gateLog(app: BrowserModeApp): Promise<{ seq: number; kind: string; actor: string }[]> {
  const log = (await invoke(app, 'gate.log', { limit: 500 })) as {
    events: { seq: number; kind: string; actor: string }[]
  }
  return log.events
}

/** The Local gate's address, as its link states it. */
export async function localGateUrl(app: BrowserModeApp): Promise<string> {
  const link = (await invoke(app, 'gate.link', null)) as { url: string | null; state: string }
  if (!link.url) throw new Error(`the Local profile has no gate URL (link state ${link.state})`)
  return link.url
}

/** The decision of this payment in the Decisions tab: its row whose outcome chip says `outcome`. */
export function decisionRow(page: Page, transactionId: string, outcome: 'Approved' | 'Rejected') {
  return page
    .getByRole('table', { name: 'Decisions' })
    .getByRole('row')
    .filter({ has: page.locator(`[data-paydesk-id="${transactionId}"]`) })
    .filter({ has: page.locator('.chip', { hasText: new RegExp(`^${outcome}$`) }) })
}

/** Opens a payment in Transactions and waits for its status there. */
export async function expectTransactionStatus(page: Page, transactionId: string, status: RegExp): Promise<void> {
  await nav(page, 'Transactions')
  await page.getByLabel('Filter transactions').fill(transactionId)
  // Held until the search's answer is drawn (its one row), which may wait for a sync to bring the payment: a click on
  // the unfiltered rows still on screen would open another transaction.
  const table = page.getByRole('table', { name: 'Transactions' })
  await expect(table.locator('tbody tr')).toHaveCount(1, { timeout: FIRST_SYNC_MS })
  await table.locator(`tbody tr:has([data-paydesk-id="${transactionId}"])`).click()
  const detail = page.getByTestId('transaction-detail')
  await expect(detail.locator('h2 [data-paydesk-id]')).toHaveAttribute('data-paydesk-id', transactionId)
  await expect(detail).toContainText(status, { timeout: FIRST_SYNC_MS })
}

/** How long a payment takes to reach the page decided or asked for: webhook → gate → its stream → the page. */
export const DECIDED_MS = 20_000

/** The prompt card of this payment, once the gate's stream has brought it to the page. */
export async function promptFor(page: Page, transactionId: string): Promise<Locator> {
  const prompt = page.getByTestId('prompt').filter({ has: page.locator(`[data-paydesk-id="${transactionId}"]`) })
  await expect(prompt).toBeVisible({ timeout: DECIDED_MS })
  return prompt
}
