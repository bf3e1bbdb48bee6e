import { QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { ActionEntry } from '../../../../src/shared/action-log'

// Drawn from an answer already in the query cache (the bridge never answers).

beforeAll(() => {
  const target = { addEventListener: () => {}, removeEventListener: () => {} }
  vi.stubGlobal('window', { ...target, paydesk: { invoke: () => new Promise(() => {}), on: () => () => {} } })
})
afterAll(() => vi.unstubAllGlobals())

const entry = (over: Partial<ActionEntry>): ActionEntry => ({
  id: 'a',
  at: '2026-03-01T10:00:00.000Z',
  kind: 'account',
  what: 'Edited Priya Raman · US bank …3210: your own account id',
  ids: ['ExternalAccount:0001-abcdef-0003'],
  reason: 'Ticket 42',
  outcome: 'done',
  message: null,
  code: null,
  settledAt: '2026-03-01T10:00:01.000Z',
  ...over
})

async function draw(entries: ActionEntry[]): Promise<string> {
  const { HistoryView } = await import('../../../../src/renderer/src/views/history/HistoryView')
  const { channelKey, createQueryClient } = await import('../../../../src/renderer/src/data/query-client')
  const client = createQueryClient()
  client.setQueryData(channelKey('history.actions', null), { profileId: 'local', entries })
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <HistoryView />
    </QueryClientProvider>
  )
}

it('shows each action in words with its outcome, its reason and its ids one copy-click away, in the order given', async () => {
  const html = await draw([
    entry({
      id: 'b',
      kind: 'reject',
      what: 'Rejected the incoming payment',
      reason: null,
      outcome: 'refused',
      message: 'Too late',
      code: 'CONFLICT'
    }),
    entry({})
  ])
  expect(html.indexOf('Rejected the incoming payment')).toBeLessThan(html.indexOf('Edited Priya Raman'))
  expect(html).toContain('Not done')
  expect(html).toContain('Too late')
  expect(html).toContain('No reason given')
  expect(html).toContain('Ticket 42')
  expect(html).toContain('data-paydesk-id="ExternalAccount:0001-abcdef-0003"')
  expect(html).toContain('2 of 2')
})

it('says when nothing was done yet', async () => {
  expect(await draw([])).toContain('No manual actions yet')
})
