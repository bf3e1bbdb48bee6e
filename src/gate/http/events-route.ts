/**
 * The operators' event stream (SSE): every log entry (webhooks, prompts, decisions, rule changes...) as
 * `id: <seq>` / `event: <kind>` / `data: <json>`. A client resumes with Last-Event-ID and gets every entry after it from
 * the log, then live ones; it never misses one written between the two, because it listens before reading back.
 */
import type { FastifyReply } from 'fastify'
import type { GateEvent } from '../../shared/gate'
import type { GateStore } from '../store/store'

const PAGE = 500
const HEARTBEAT_MS = 15_000

export class EventStreams {
  private readonly open = new Set<FastifyReply>()

  constructor(
    private readonly store: GateStore,
    private readonly onCount: (n: number) => void
  ) {}

  async serve(reply: FastifyReply, lastEventId: string | undefined): Promise<void> {
    const after = /^\d{1,15}$/.test(lastEventId ?? '') ? Number(lastEventId) : 0
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no'
    })
    let last = after
    let replaying = true
    const held: GateEvent[] = []
    const write = (e: GateEvent): void => {
      if (e.seq <= last) return
      last = e.seq
      res.write(`id: ${e.seq}\nevent: ${e.kind}\ndata: ${JSON.stringify(e)}\n\n`)
    }
    const unsubscribe = this.store.subscribe((e) => (replaying ? held.push(e) : write(e)))
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS)
    heartbeat.unref()
    this.open.add(reply)
    this.onCount(this.open.size)
    res.on('close', () => {
      unsubscribe()
      clearInterval(heartbeat)
      this.open.delete(reply)
      this.onCount(this.open.size)
    })
    res.write(': connected\n\n')
    for (;;) {
      const page = await this.store.readLog(last, PAGE)
      for (const e of page) write(e)
      if (page.length < PAGE) break
    }
    replaying = false
    for (const e of held.splice(0)) write(e)
  }

  /** Ends every stream (a graceful stop): clients reconnect elsewhere with their Last-Event-ID. */
  closeAll(): void {
    for (const reply of this.open) reply.raw.end()
  }
}
