import { describe, expect, it, vi } from 'vitest'

// Main's answers are held until the test gives them: what the top bar says depends on which came first.
const held: ((result: unknown) => void)[] = []
vi.mock('../../../src/renderer/src/bridge/paydesk', () => ({
  paydesk: { invoke: () => new Promise((resolve) => held.push(resolve)) }
}))
import {
  applySyncStatus,
  connectionLabel,
  loadSyncStatus,
  neverSyncedWhy,
  notLiveLabel,
  syncViewOf
} from '../../../src/renderer/src/data/sync'
import { applyProfileList } from '../../../src/renderer/src/data/profiles'
import { queryClient } from '../../../src/renderer/src/data/query-client'
import type { ConnectionView, SyncStatus } from '../../../src/shared/ipc/channels/sync'
import type { ProfileList } from '../../../src/shared/profile'

const report = {
  profileId: 'p1',
  state: 'idle' as const,
  lastSyncedAt: null,
  offlineSince: null,
  intervalMs: 60_000,
  reason: 'not started'
}

describe('the sync chip', () => {
  it('says unknown until main has synced, and main’s reason when there is no message', () => {
    expect(syncViewOf(report)).toEqual({
      status: 'unknown',
      lastSyncedAt: null,
      offlineSince: null,
      message: 'not started',
      progress: null,
      connection: null
    })
  })

  it('shows an offline profile since when, with main’s own sentence and the history’s progress', () => {
    const view = syncViewOf({
      ...report,
      state: 'offline',
      offlineSince: '2026-11-24T09:30:00Z',
      message: 'The service cannot be reached',
      progress: { done: 10, total: 40 }
    })
    expect(view).toMatchObject({
      status: 'offline',
      offlineSince: '2026-11-24T09:30:00Z',
      message: 'The service cannot be reached',
      progress: { done: 10, total: 40 }
    })
  })
})

describe('the connection’s words: exactly one state', () => {
  const now = Date.parse('2026-11-24T09:31:00Z')
  const clock = (iso: string) => iso.slice(11, 16)
  const view = (patch: Partial<ConnectionView>): ConnectionView => ({
    state: 'live',
    since: '2026-11-24T09:30:00Z',
    lastAnswerAt: '2026-11-24T09:30:15Z',
    detail: 'd',
    ...patch
  })
  const label = (patch: Partial<ConnectionView>) => connectionLabel(view(patch), now, clock)

  it('says each state in the operator’s words', () => {
    expect(label({ state: 'connecting' })).toBe('Connecting…')
    expect(label({ state: 'live' })).toBe('Live')
    expect(label({ state: 'slow', slowAnswerMs: 4_240 })).toBe('Slow · an answer took 4.2 s')
    expect(label({ state: 'slow', slowAnswerMs: 12_600 })).toBe('Slow · an answer took 13 s')
    expect(label({ state: 'serviceError' })).toBe('Service error')
    expect(label({ state: 'offline' })).toBe('Offline since 09:30')
    expect(label({ state: 'signedOut' })).toBe('Signed out')
    expect(label({ state: 'sandboxStopped' })).toBe('Local sandbox stopped')
  })

  it('Not responding counts the time since the last answer: seconds, minutes, then the time of day', () => {
    expect(label({ state: 'notResponding' })).toBe('Not responding · last answer 45 s ago')
    expect(label({ state: 'notResponding', lastAnswerAt: '2026-11-24T09:26:40Z' })).toBe(
      'Not responding · last answer 4 min ago'
    )
    expect(label({ state: 'notResponding', lastAnswerAt: '2026-11-24T07:00:00Z' })).toBe(
      'Not responding · last answer at 07:00'
    )
    expect(label({ state: 'notResponding', lastAnswerAt: null })).toBe('Not responding · no answer yet')
  })

  it('a list says “as of” beside the state when not live, and why it never synced', () => {
    expect(notLiveLabel(view({ state: 'live' }))).toBeNull()
    expect(notLiveLabel(view({ state: 'slow' }))).toBeNull()
    expect(notLiveLabel(null)).toBeNull()
    expect(notLiveLabel(view({ state: 'sandboxStopped' }))).toBe('Local sandbox stopped')
    expect(notLiveLabel(view({ state: 'notResponding' }))).toBe('Not responding')
    expect(neverSyncedWhy(view({ state: 'offline' }))).toBe('Paydesk cannot reach the service.')
    expect(neverSyncedWhy(view({ state: 'sandboxStopped' }))).toBe(
      'the Local sandbox stopped: restart it from the top bar.'
    )
    expect(neverSyncedWhy(view({ state: 'live' }))).toBe('the first sync is running.')
  })
})

describe('what the top bar is told', () => {
  const told = () => queryClient.getQueryData<SyncStatus | null>(['sync.status', null])?.state ?? null
  const status = (profileId: string, state: SyncStatus['state']): SyncStatus => ({ ...report, profileId, state })

  it('keeps an event that arrived while main answered the ask: the answer is older', async () => {
    queryClient.clear()
    applyProfileList({ activeProfileId: 'p1', profiles: [] } as unknown as ProfileList)
    const asking = loadSyncStatus()
    applySyncStatus(status('p1', 'offline'))
    held.shift()!({ ok: true, value: status('p1', 'syncing') })
    await asking
    expect(told()).toBe('offline')
  })

  it('shows neither the answer nor the events of a profile that is not the active one', async () => {
    queryClient.clear()
    applyProfileList({ activeProfileId: 'p2', profiles: [] } as unknown as ProfileList)
    const asking = loadSyncStatus()
    held.shift()!({ ok: true, value: status('p1', 'live') })
    await asking
    expect(told()).toBeNull()
    applySyncStatus(status('p1', 'error'))
    expect(told()).toBeNull()
    applySyncStatus(status('p2', 'live'))
    expect(told()).toBe('live')
  })
})
