import { isChannelName } from '../../../shared/ipc/channel-names'
import type { PaydeskApi } from '../../../shared/ipc/contract'
import { BRIDGE_EVENTS_PATH, BRIDGE_INVOKE_PATH, TOKEN_HEADER } from '../../../shared/ipc/wire'

export const TOKEN_KEY = 'paydesk.bridgeToken'

/**
 * Browser mode's `window.paydesk`: the same contract as the desktop preload, carried over the loopback bridge.
 * The per-launch token arrives in the URL fragment (never sent to a server), is kept for this tab only, and is
 * removed from the address bar at once.
 */
export function createWebBridge(location: Location, storage: Storage): PaydeskApi {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token')
  if (fromHash) {
    storage.setItem(TOKEN_KEY, fromHash)
    history.replaceState(null, '', location.pathname + location.search)
  }
  const token = storage.getItem(TOKEN_KEY) ?? ''
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  let streaming = false

  async function streamEvents(): Promise<void> {
    let delay = 500
    for (;;) {
      try {
        const response = await fetch(BRIDGE_EVENTS_PATH, { headers: { [TOKEN_HEADER]: token }, cache: 'no-store' })
        if (!response.ok || !response.body) throw new Error(`events ${response.status}`)
        delay = 500
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          let end: number
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            if (!frame.startsWith('data: ')) continue
            const { event, payload } = JSON.parse(frame.slice(6)) as { event: string; payload: unknown }
            listeners.get(event)?.forEach((listener) => listener(payload))
          }
        }
      } catch {
        // The backend restarted or went away: try again, more slowly each time.
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
      delay = Math.min(delay * 2, 10_000)
    }
  }

  return {
    invoke: async (channel, input) => {
      if (!isChannelName(channel)) {
        return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `Unknown operation ${String(channel)}` } }
      }
      try {
        const response = await fetch(BRIDGE_INVOKE_PATH + encodeURIComponent(channel), {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
          body: JSON.stringify({ input: input ?? null })
        })
        return await response.json()
      } catch {
        return {
          ok: false,
          error: { code: 'UNREACHABLE', message: 'Paydesk’s backend is not answering. Is `npm run web` still running?' }
        }
      }
    },
    on: (event, listener) => {
      if (!streaming) {
        streaming = true
        void streamEvents()
      }
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: unknown) => void)
      listeners.set(event, set)
      return () => void set.delete(listener as (payload: unknown) => void)
    }
  }
}
