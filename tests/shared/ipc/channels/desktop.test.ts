import { describe, expect, it } from 'vitest'
import { CopyableId, UpdateSettings } from '../../../../src/shared/ipc/channels/desktop'

describe('update settings', () => {
  it('accept updates off with no feed (the default), and on with an https feed', () => {
    expect(UpdateSettings.parse({ enabled: false, feedUrl: null })).toEqual({ enabled: false, feedUrl: null })
    expect(UpdateSettings.parse({ enabled: true, feedUrl: ' https://updates.example.com/paydesk ' })).toEqual({
      enabled: true,
      feedUrl: 'https://updates.example.com/paydesk'
    })
  })

  it.each([
    ['http://updates.example.com/paydesk', 'The update feed must be an https:// address without credentials'],
    ['https://user:pass@updates.example.com/', 'The update feed must be an https:// address without credentials'],
    ['file:///tmp/latest.yml', 'The update feed must be an https:// address without credentials'],
    ['https://updates.example.com/?token=x', 'The update feed must be an https:// address without credentials'],
    [`https://updates.example.com/${'a'.repeat(500)}`, 'The feed address is at most 500 characters']
  ])('refuse the feed %s with a clear sentence', (feedUrl, message) => {
    const result = UpdateSettings.safeParse({ enabled: true, feedUrl })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(message)
  })

  it('refuse updates on without a feed, and unknown fields', () => {
    expect(UpdateSettings.safeParse({ enabled: true, feedUrl: null }).error?.issues[0]?.message).toBe(
      'Set the update feed address before turning updates on'
    )
    expect(UpdateSettings.safeParse({ enabled: false, feedUrl: null, autoInstall: true }).success).toBe(false)
  })
})

describe('ids the right-click menu may copy', () => {
  it('are the service’s ids, nothing else', () => {
    expect(CopyableId.safeParse('Transaction:abc').success).toBe(true)
    expect(CopyableId.safeParse('ExternalAccount:x-1').success).toBe(true)
    for (const bad of ['', 'hello', 'javascript:alert(1)', 'Transaction:', 'Transaction:a b'])
      expect(CopyableId.safeParse(bad).success).toBe(false)
  })
})
