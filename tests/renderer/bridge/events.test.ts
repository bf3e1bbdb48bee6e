import { afterAll, beforeAll, expect, it, vi } from 'vitest'

// The page's first calls, as main receives them. A browser opens six connections to a host and the event stream keeps
// one: the calls that wait for the profile's session (its cache opening) must not hold the first screen's back.

const asked: string[] = []

beforeAll(() => {
  const target = { addEventListener: () => {}, removeEventListener: () => {} }
  const paydesk = {
    // Main has not answered yet: every call stays in flight, as they do while the backend starts.
    invoke: (channel: string) => {
      asked.push(channel)
      return new Promise(() => {})
    },
    on: () => () => {}
  }
  vi.stubGlobal('window', { ...target, paydesk })
  vi.stubGlobal('document', { ...target, visibilityState: 'visible', hasFocus: () => true })
})
afterAll(() => vi.unstubAllGlobals())

it('asks for the profile list before the calls that wait for the profile session', async () => {
  const { connectEvents } = await import('../../../src/renderer/src/bridge/events')
  const disconnect = connectEvents()
  expect(asked[0]).toBe('profiles.list')
  expect(asked).toEqual(expect.arrayContaining(['sync.status', 'notices.list']))
  expect(asked.filter((c) => c === 'profiles.list')).toHaveLength(1)
  disconnect()
})
