import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'

// A toast as drawn: its words name the account a notice gave by id, and that id is one copy-click away beside them.
vi.hoisted(() => {
  vi.stubGlobal('window', { paydesk: { invoke: () => new Promise(() => {}), on: () => () => {} } })
})

const JANE_US = 'ExternalAccount:0195a1b2-0000-7000-8000-000000009012'

async function draw(toast: { id: string; title: string; body: string }, names: Record<string, string>) {
  const { ToastItem } = await import('../../../src/renderer/src/shell/Toasts')
  return renderToStaticMarkup(
    <ToastItem
      toast={{ ...toast, route: 'transactions', targetId: 'Transaction:t1' }}
      names={names}
      dismiss={() => {}}
    />
  )
}

/** What a person reads: the markup's text, attributes left out. */
const text = (html: string) => html.replace(/<[^>]*>/g, ' ')

describe('toasts', () => {
  it('name the account a notice gave by id, the id one copy-click away', async () => {
    const html = await draw(
      { id: 'transfer:t1:COMPLETED', title: 'Transfer completed', body: `$1,250.00 reached ${JANE_US}.` },
      { [JANE_US]: 'Jane Smith · US bank …9012' }
    )
    expect(text(html)).toContain('$1,250.00 reached Jane Smith · US bank …9012.')
    expect(text(html)).not.toContain('ExternalAccount:')
    expect(html).toContain(`aria-label="Copy ${JANE_US}"`)
  })

  it('say what an unnamed id is, and offer no copy button when they name none', async () => {
    const unnamed = await draw(
      { id: 'n1', title: 'Transfer failed', body: `$5.00 to ${JANE_US} did not go through.` },
      {}
    )
    expect(text(unnamed)).toContain('$5.00 to an external account did not go through.')
    expect(unnamed).toContain(`aria-label="Copy ${JANE_US}"`)
    const plain = await draw({ id: 'n2', title: 'Payment waiting for your approval', body: '$3.00 is waiting.' }, {})
    expect(plain).not.toContain('aria-label="Copy')
  })
})
