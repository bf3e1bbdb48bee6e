import { QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { GateEvent } from '../../../../src/shared/gate'

// The log pages back with `before`: each older page is read before the oldest entry of the page above it, drawn here
// from answers already in the cache (the bridge never answers).

beforeAll(() => {
  const target = { addEventListener: () => {}, removeEventListener: () => {} }
  vi.stubGlobal('window', { ...target, paydesk: { invoke: () => new Promise(() => {}), on: () => () => {} } })
})
afterAll(() => vi.unstubAllGlobals())

const entries = (from: number, to: number): GateEvent[] =>
  Array.from({ length: from - to + 1 }, (_, i) => ({
    seq: from - i,
    at: '2026-11-27T10:00:00.000Z',
    kind: 'operator',
    actor: 'gate',
    data: { added: `Operator ${from - i}` }
  }))

async function draw(older: number): Promise<string> {
  const { LogPage } = await import('../../../../src/renderer/src/views/approvals/DecisionLog')
  const { channelKey, createQueryClient } = await import('../../../../src/renderer/src/data/query-client')
  const client = createQueryClient()
  client.setQueryData(channelKey('gate.log', { limit: 100 }), { profileId: 'local', events: entries(230, 131) })
  client.setQueryData(channelKey('gate.log', { before: 131, limit: 100 }), {
    profileId: 'local',
    events: entries(130, 91)
  })
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <LogPage before={undefined} older={older} onMore={() => {}} />
    </QueryClientProvider>
  )
}

it('offers older entries under a full page, and reads them before its oldest entry', async () => {
  const newest = await draw(0)
  expect(newest).toContain('Operator 131')
  expect(newest).not.toContain('Operator 130')
  expect(newest).toContain('Older entries')

  const paged = await draw(1)
  expect(paged).toContain('Operator 131')
  expect(paged).toContain('Operator 91')
  // The older page is not full: the log has nothing before it.
  expect(paged).not.toContain('Older entries')
})
