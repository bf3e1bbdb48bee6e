import { chord, expect, test, type Page } from '../support/browser-mode'

/** Presses Tab until the focused element has this accessible text, as a keyboard user would (at most `max` times). */
async function tabTo(page: Page, text: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    const focused = page.locator(':focus')
    if ((await focused.count()) === 1 && (await focused.textContent())?.trim() === text) return
  }
  throw new Error(`"${text}" was not reachable with Tab`)
}

const section = (page: Page, name: RegExp) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name })

test('keyboard only: sections by shortcut, a detail, an edit form submitted, the palette traps and restores focus', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  await expect(section(page, /^Home/)).toBeVisible()
  await page.keyboard.press('Escape')

  // g then a letter goes to a section.
  await chord(page, 'c')
  await expect(section(page, /^Customers/)).toHaveAttribute('aria-current', 'page')
  // "/" filters, Esc leaves the box, j opens the first row's detail, Esc closes it. The view loads on demand: press
  // "/" once its search box is on screen, as the operator would.
  await expect(page.getByLabel('Search customers')).toBeVisible()
  await page.keyboard.press('/')
  await expect(page.getByLabel('Search customers')).toBeFocused()
  await page.keyboard.type('jane')
  await page.keyboard.press('Escape')
  // j moves through the rows on screen: wait for the list to show what was typed, as the operator would.
  await expect(page.getByText('1 customers', { exact: true })).toBeVisible()
  await page.keyboard.press('j')
  const customer = page.getByTestId('customer-detail')
  await expect(customer.getByRole('heading', { name: 'Jane Smith' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(customer).toHaveCount(0)

  // An external account: open it, reach Edit with Tab, submit the form with Enter.
  await chord(page, 'e')
  await expect(section(page, /^External accounts/)).toHaveAttribute('aria-current', 'page')
  await page.keyboard.press('/')
  await page.keyboard.type('9012')
  await page.keyboard.press('Escape')
  // As with the customers above: j moves through the rows on screen, so wait for the search's answer first.
  await expect(page.getByText('1 accounts', { exact: true })).toBeVisible()
  await page.keyboard.press('j')
  const detail = page.getByTestId('external-account-detail')
  await expect(detail).toBeVisible()
  await tabTo(page, 'Edit…')
  await page.keyboard.press('Enter')
  const form = detail.getByRole('form', { name: 'Edit account' })
  await expect(form.getByLabel('Platform account id')).toBeFocused()
  await page.keyboard.press('Control+a')
  await page.keyboard.type('kbd-ledger-7')
  await page.keyboard.press('Enter')
  await expect(detail.getByText('Saved.')).toBeVisible()
  await expect(detail.getByText('kbd-ledger-7')).toBeVisible()
  await shot('keyboard-edit-saved')

  // The palette: Ctrl+K opens it with focus in it, Tab stays inside, Esc closes it.
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette).toBeVisible()
  await expect(palette.getByLabel('Jump to')).toBeFocused()
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab')
    await expect(palette.locator(':focus')).toHaveCount(1)
  }
  await shot('keyboard-palette')
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)

  // The palette jumps too: type and Enter.
  await page.keyboard.press('Control+k')
  await page.keyboard.type('Internal')
  await page.keyboard.press('Enter')
  await expect(section(page, /^Internal accounts/)).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toHaveCount(0)
})

test('keys pressed while a view is still loading act once it is on screen', async ({ page, app }) => {
  // The Transactions view's module is held back until the keys are pressed, as on a slow start.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/TransactionsView-[\w-]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.goto(app.url)
  await expect(section(page, /^Home/)).toBeVisible()
  await chord(page, 't')
  await expect(section(page, /^Transactions/)).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('status', { name: 'Loading view' })).toBeVisible()
  // "/" then a search, before the view (and its key handlers) exist.
  await page.keyboard.press('/')
  await page.keyboard.type('Transaction:')
  release()
  const search = page.getByLabel('Filter transactions')
  await expect(search).toBeFocused()
  await expect(search).toHaveValue('Transaction:')
  // The keys went to the view, not anywhere else: the search applies as if typed.
  await expect(page.getByRole('status', { name: 'Loading view' })).toHaveCount(0)
})
