/**
 * The operator's side of the gate bench: Paydesk main's own gate follower (src/main/gate: the client, the SSE parser,
 * the resume logic), so "prompt → shown in a connected Paydesk" is timed where Paydesk receives the entry and relays
 * it to the window (`gate.event`), not at a hand-written stream reader.
 */
import { GateClient } from '../src/main/infra/gate/gate-client'
import { GateFollower } from '../src/main/infra/gate/gate-stream'

interface EventStream {
  /** When the `prompt` entry of a transaction reached Paydesk (performance.now()). */
  promptShown(transactionId: string): Promise<number>
  events(): number
  close(): Promise<void>
}

export async function openEventStream(gateUrl: string, token: string): Promise<EventStream> {
  const shown = new Map<string, number>()
  const waiting = new Map<string, (at: number) => void>()
  let count = 0
  let live: () => void = () => undefined
  const isLive = new Promise<void>((r) => (live = r))
  const client = new GateClient({ url: gateUrl, token })
  const follower = new GateFollower({
    client,
    onEvent: (event) => {
      const at = performance.now()
      count++
      if (event.kind !== 'prompt') return
      const id = String(event.data['transactionId'])
      shown.set(id, at)
      waiting.get(id)?.(at)
      waiting.delete(id)
    },
    onState: (state) => state === 'live' && live(),
    log: () => undefined
  })
  follower.start()
  await isLive
  return {
    promptShown: (id) => {
      const at = shown.get(id)
      return at !== undefined ? Promise.resolve(at) : new Promise((r) => waiting.set(id, r))
    },
    events: () => count,
    close: async () => {
      await follower.stop()
      await client.close()
    }
  }
}
