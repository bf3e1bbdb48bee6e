/**
 * The operators' event stream: with a token it carries every log entry as SSE (`id:` = seq), live ones as they
 * happen; resumed with Last-Event-ID it starts right after that entry. Reads wait for the events they expect, never
 * for time.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startRig, type Rig } from '../harness'

const rigs: Rig[] = []
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close()
})

interface Frame {
  id: number
  event: string
  data: { seq: number; kind: string; actor: string; data: Record<string, unknown> }
}

/** Opens the stream and returns a reader that resolves once `n` events have come. */
async function stream(r: Rig, lastEventId?: number) {
  const controller = new AbortController()
  const res = await fetch(`${r.gate.url}/operator/events`, {
    headers: {
      authorization: `Bearer ${r.token}`,
      ...(lastEventId !== undefined && { 'last-event-id': String(lastEventId) })
    },
    signal: controller.signal
  })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
  const reader = res.body!.getReader()
  const frames: Frame[] = []
  let buffer = ''
  return {
    async take(n: number): Promise<Frame[]> {
      while (frames.length < n) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the stream ended after ${frames.length} events`)
        buffer += Buffer.from(value).toString('utf8')
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)])
          )
          if (fields['id'])
            frames.push({ id: Number(fields['id']), event: fields['event']!, data: JSON.parse(fields['data']!) })
        }
      }
      return frames.splice(0, n)
    },
    /** True once the server has ended the stream. */
    ended: async (): Promise<boolean> => {
      for (;;) {
        const { done } = await reader.read()
        if (done) return true
      }
    },
    close: () => controller.abort()
  }
}

describe('GET /operator/events', () => {
  it('replays the log, then carries live entries; Last-Event-ID resumes after that entry', async () => {
    const r = await startRig()
    rigs.push(r)
    // The TEST webhook the sandbox sent when its endpoint was set, and the operator added: two entries so far.
    const s = await stream(r)
    const first = await s.take(2)
    expect(first.map((f) => [f.id, f.event])).toEqual([
      [1, 'operator'],
      [2, 'webhook']
    ])
    await r.op('PUT', '/operator/rules', { rules: [], otherwise: 'ask', otherwiseFallback: 'reject' })
    const [rules] = await s.take(1)
    expect(rules).toMatchObject({ id: 3, event: 'rules', data: { actor: 'operator:Ana' } })
    s.close()

    const customer = await r.customer()
    await r.receive(customer, 10_00)
    const resumed = await stream(r, 2)
    const frames = await resumed.take(3)
    expect(frames.map((f) => [f.id, f.event])).toEqual([
      [3, 'rules'],
      [4, 'webhook'],
      [5, 'prompt']
    ])
    expect(frames[2]!.data.data).toMatchObject({ amount: 10_00, currency: 'USD', fallback: 'reject' })
    resumed.close()
  })

  it('refuses a stream without a valid token', async () => {
    const r = await startRig()
    rigs.push(r)
    const res = await fetch(`${r.gate.url}/operator/events`, { headers: { authorization: 'Bearer gop_nope' } })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('a graceful stop ends the open streams, so it does not wait on them', async () => {
    const r = await startRig()
    rigs.push(r)
    const s = await stream(r)
    await s.take(2)
    await r.gate.close()
    expect(await s.ended()).toBe(true)
  })
})
