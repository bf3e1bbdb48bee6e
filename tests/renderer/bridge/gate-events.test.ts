import { afterAll, beforeAll, expect, it, vi } from 'vitest'

// The Approvals badge is the ACTIVE profile's count of prompts: a count from a profile running in the background
// belongs to that profile and must not show.

const listeners = new Map<string, (payload: unknown) => void>()

beforeAll(() => {
  const target = { addEventListener: () => {}, removeEventListener: () => {} }
  const paydesk = {
    invoke: () => new Promise(() => {}),
    on: (event: string, listener: (payload: unknown) => void) => {
      listeners.set(event, listener)
      return () => listeners.delete(event)
    }
  }
  vi.stubGlobal('window', { ...target, paydesk })
  vi.stubGlobal('document', { ...target, visibilityState: 'visible', hasFocus: () => true })
})
afterAll(() => vi.unstubAllGlobals())

it('counts the active profile’s prompts only', async () => {
  const { connectEvents } = await import('../../../src/renderer/src/bridge/events')
  const { activeProfileId, applyProfileList } = await import('../../../src/renderer/src/data/profiles')
  const { countsQuery, pendingApprovalsOf } = await import('../../../src/renderer/src/data/pending-approvals')
  const { queryClient } = await import('../../../src/renderer/src/data/query-client')
  const { QueryObserver } = await import('@tanstack/react-query')
  const shown = () => pendingApprovalsOf(queryClient.getQueryData(countsQuery.queryKey), activeProfileId())
  const disconnect = connectEvents()
  // The sidebar's badge reads the counts for as long as the page is open.
  new QueryObserver(queryClient, countsQuery).subscribe(() => {})
  applyProfileList({ activeProfileId: 'local', profiles: [] } as never)
  const promptsChanged = listeners.get('gate.promptsChanged')!
  promptsChanged({ profileId: 'local', count: 2 })
  expect(shown()).toBe(2)
  promptsChanged({ profileId: 'team', count: 7 })
  expect(shown()).toBe(2)
  // The operator switches profile: each count stays with its own profile, and the one shown follows the switch.
  listeners.get('profiles.changed')!({ activeProfileId: 'team', profiles: [] })
  expect(shown()).toBe(7)
  listeners.get('profiles.changed')!({ activeProfileId: 'local', profiles: [] })
  expect(shown()).toBe(2)
  disconnect()
})

it('takes down the notice of a prompt once its payment is decided', async () => {
  const { connectEvents } = await import('../../../src/renderer/src/bridge/events')
  const { useUi } = await import('../../../src/renderer/src/stores/ui')
  const disconnect = connectEvents()
  useUi.getState().pushToast({ id: 'gate-prompt:Transaction:1', title: 'Payment waiting for your approval', body: '' })
  useUi.getState().pushToast({ id: 'gate-prompt:Transaction:2', title: 'Payment waiting for your approval', body: '' })
  listeners.get('gate.event')!({
    profileId: 'team',
    event: {
      seq: 3,
      at: '2026-11-27T10:00:04Z',
      kind: 'decision',
      actor: 'fallback:otherwise',
      data: { transactionId: 'Transaction:1' }
    }
  })
  expect(useUi.getState().toasts.map((t) => t.id)).toEqual(['gate-prompt:Transaction:2'])
  disconnect()
})
