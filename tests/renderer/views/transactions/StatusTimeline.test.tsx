import { QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { StatusHistoryEntry } from '../../../../src/shared/status-history'

// The timeline reads the detail's own query: drawn here from an answer already in the cache (the bridge never answers).

beforeAll(() => {
  const target = { addEventListener: () => {}, removeEventListener: () => {} }
  vi.stubGlobal('window', { ...target, paydesk: { invoke: () => new Promise(() => {}), on: () => () => {} } })
})
afterAll(() => vi.unstubAllGlobals())

const ID = 'Transaction:0001'

async function draw(history: StatusHistoryEntry[]): Promise<string> {
  const { StatusTimeline } = await import('../../../../src/renderer/src/views/transactions/StatusTimeline')
  const { channelKey, createQueryClient } = await import('../../../../src/renderer/src/data/query-client')
  const { setTimeZone } = await import('../../../../src/renderer/src/format/time')
  setTimeZone('utc')
  const client = createQueryClient()
  client.setQueryData(channelKey('transactions.get', { id: ID }), {
    profileId: 'local',
    transaction: null,
    names: {},
    syncedAt: null,
    history
  })
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <StatusTimeline id={ID} />
    </QueryClientProvider>
  )
}

it('lists each status in the shared words, oldest first, saying whose clock each time is', async () => {
  const html = await draw([
    { status: 'PENDING', at: '2026-03-01T10:00:00.000Z', source: 'service' },
    { status: 'PROCESSING', at: '2026-03-01T10:00:02.000Z', source: 'paydesk' },
    { status: 'COMPLETED', at: '2026-03-01T10:00:09.000Z', source: 'service' }
  ])
  const order = ['Pending', 'Processing', 'Completed'].map((word) => html.indexOf(`<span>${word}</span>`))
  expect(order.every((i) => i >= 0)).toBe(true)
  expect([...order].sort((a, b) => a - b)).toEqual(order)
  // In the zone chosen in Settings (UTC here), in the locale's own words.
  const { formatDateTime } = await import('../../../../src/renderer/src/format/time')
  expect(formatDateTime('2026-03-01T10:00:02.000Z')).toContain('UTC')
  expect(html).toContain(`seen by Paydesk ${formatDateTime('2026-03-01T10:00:02.000Z')}`)
  expect(html).toContain(`at the service ${formatDateTime('2026-03-01T10:00:09.000Z')}`)
  // The current status is the last step, and the heading says the list is what Paydesk saw.
  expect(html.lastIndexOf('aria-current="step"')).toBeGreaterThan(order[2]! - 200)
  expect(html.match(/aria-current="step"/g)).toHaveLength(1)
  expect(html).toContain('As Paydesk saw it')
})

it('says a status the shared vocabulary does not know verbatim, and draws nothing without a history', async () => {
  expect(await draw([{ status: 'SHINY_NEW', at: '2026-03-01T10:00:00.000Z', source: 'service' }])).toContain(
    '<span>SHINY_NEW</span>'
  )
  expect(await draw([])).toBe('')
})
