import { parentChannel } from './parent-channel'

/**
 * The life cycle every child process of Paydesk shares (the Local sandbox, the Local gate): one `start` message, one
 * `ready` (or `failed`) answer, `close` or the parent going away stops it gracefully, and so do SIGINT/SIGTERM (Ctrl-C
 * in a terminal signals the whole process group: close like the parent would, instead of dying mid-way). Each entry
 * only says how it reads its messages, starts, and announces itself.
 */

/** The parts of Node's `process` the life cycle uses (src/shared knows no Node types: the entry passes `process`). */
export interface ChildSelf {
  pid: number
  exit(code: number): void
  send?: ((message: never) => boolean) | undefined
  on(event: 'message', listener: (message: unknown) => void): unknown
  on(event: 'disconnect', listener: () => void): unknown
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
}

/** What any child says besides its `ready`: a log line for the parent's log, or why it could not start. */
type ChildReport = { type: 'log'; message: string } | { type: 'failed'; message: string }

interface ChildEntry<Start, Running extends { close(): Promise<unknown> }, Ready> {
  /** Names the process in the lines it sends, e.g. "Local gate process". */
  name: string
  /** The parent's message read with its schema; undefined when it is malformed (ignored, and said in the log). */
  read(raw: unknown): Start | { type: 'close' } | undefined
  start(message: Start, log: (line: string) => void): Promise<Running>
  ready(running: Running, pid: number): Ready
}

export function runChildEntry<Start extends { type: 'start' }, Running extends { close(): Promise<unknown> }, Ready>(
  self: ChildSelf,
  entry: ChildEntry<Start, Running, Ready>
): void {
  const port = parentChannel<Ready | ChildReport>(self, `The ${entry.name} entry`)
  const log = (message: string) => port.send({ type: 'log', message })
  let running: Running | undefined
  let starting = false
  let stopping = false

  const stop = async (code: number): Promise<void> => {
    if (stopping) return
    stopping = true
    await running?.close().catch(() => undefined)
    self.exit(code)
  }

  port.onParentGone(() => void stop(0))
  for (const signal of ['SIGINT', 'SIGTERM'] as const) self.on(signal, () => void stop(0))
  port.onMessage((raw) => {
    const message = entry.read(raw)
    if (!message) return log(`${entry.name}: ignored a malformed message`)
    if (message.type === 'close') return void stop(0)
    // One start per process: a second `start` (a parent retrying) would bind a second server.
    if (starting) return
    starting = true
    entry.start(message as Start, log).then(
      (r) => {
        running = r
        // Told to close while it was starting: it closes now, instead of announcing itself.
        if (stopping) void r.close()
        else port.send(entry.ready(r, self.pid))
      },
      (err: unknown) => {
        // A zod error's message names the fields, never their values.
        port.send({ type: 'failed', message: err instanceof Error ? err.message : String(err) })
        void stop(1)
      }
    )
  })
}
