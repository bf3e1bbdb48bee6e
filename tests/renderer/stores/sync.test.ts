import { describe, expect, it } from 'vitest'
import { syncViewOf } from '../../../src/renderer/src/stores/sync'

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
      progress: null
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
