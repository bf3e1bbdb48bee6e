import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { runChildEntry, type ChildSelf } from '../../src/shared/child-entry'

/** A forked child's `process` as the life cycle sees it: messages in, messages out, signals, exit. */
function fakeSelf() {
  const events = new EventEmitter()
  const sent: unknown[] = []
  const exits: number[] = []
  const self = {
    pid: 4242,
    exit: (code: number) => void exits.push(code),
    send: ((m: unknown) => (sent.push(m), true)) as (message: never) => boolean,
    on: ((event: string, listener: () => void) => events.on(event, listener)) as ChildSelf['on']
  } as ChildSelf
  return { self, sent, exits, emit: (event: string, ...args: unknown[]) => events.emit(event, ...args) }
}

type Start = { type: 'start'; port: number }
const read = (raw: unknown) => {
  const m = raw as { type?: string; port?: unknown }
  if (m?.type === 'close') return { type: 'close' as const }
  if (m?.type === 'start' && typeof m.port === 'number') return { type: 'start' as const, port: m.port }
  return undefined
}

/** A start the test resolves itself: the life cycle's answers are observed at each step, with nothing racing. */
function heldStart() {
  const starts: Start[] = []
  let release!: (running: { url: string; close(): Promise<void> }) => void
  let fail!: (error: Error) => void
  const closed: string[] = []
  const start = (m: Start) => {
    starts.push(m)
    return new Promise<{ url: string; close(): Promise<void> }>((resolve, reject) => {
      release = resolve
      fail = reject
    })
  }
  const running = (url: string) => ({ url, close: async () => void closed.push(url) })
  return { starts, start, release: (url: string) => release(running(url)), fail: (e: Error) => fail(e), closed }
}

function run(self: ChildSelf, held: ReturnType<typeof heldStart>) {
  runChildEntry(self, {
    name: 'Test process',
    read,
    start: held.start,
    ready: (r, pid) => ({ type: 'ready', pid, url: r.url })
  })
}

/** A child told to start on port 1, its start held until the test releases or fails it. */
function startingOnPort1() {
  const f = fakeSelf()
  const held = heldStart()
  run(f.self, held)
  f.emit('message', { type: 'start', port: 1 })
  return { f, held }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('a child process of Paydesk', () => {
  it('starts once, announces itself, and closes what it started when told to close', async () => {
    const { f, held } = startingOnPort1()
    f.emit('message', { type: 'start', port: 2 })
    held.release('http://127.0.0.1:1')
    await settle()
    expect(held.starts).toEqual([{ type: 'start', port: 1 }])
    expect(f.sent).toEqual([{ type: 'ready', pid: 4242, url: 'http://127.0.0.1:1' }])
    f.emit('message', { type: 'close' })
    await settle()
    expect(held.closed).toEqual(['http://127.0.0.1:1'])
    expect(f.exits).toEqual([0])
  })

  it('says in its log that it ignored a malformed message, and keeps running', async () => {
    const f = fakeSelf()
    run(f.self, heldStart())
    f.emit('message', { type: 'start', port: 'eighty' })
    expect(f.sent).toEqual([{ type: 'log', message: 'Test process: ignored a malformed message' }])
    expect(f.exits).toEqual([])
  })

  it('told to close while starting, it closes what it started instead of announcing it', async () => {
    const { f, held } = startingOnPort1()
    f.emit('message', { type: 'close' })
    await settle()
    expect(f.exits).toEqual([0])
    held.release('http://127.0.0.1:1')
    await settle()
    expect(held.closed).toEqual(['http://127.0.0.1:1'])
    expect(f.sent).toEqual([])
  })

  it('a start that fails is told to the parent, and the process exits with 1', async () => {
    const { f, held } = startingOnPort1()
    held.fail(new Error('port 1 is taken'))
    await settle()
    expect(f.sent).toEqual([{ type: 'failed', message: 'port 1 is taken' }])
    expect(f.exits).toEqual([1])
  })

  it.each(['SIGTERM', 'SIGINT', 'disconnect'])('%s closes it gracefully, once', async (event) => {
    const { f, held } = startingOnPort1()
    held.release('http://127.0.0.1:1')
    await settle()
    f.emit(event)
    f.emit(event)
    await settle()
    expect(held.closed).toEqual(['http://127.0.0.1:1'])
    expect(f.exits).toEqual([0])
  })
})
