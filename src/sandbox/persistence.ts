import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { STATE_FORMAT, STATE_VERSION, type PersistedState } from './store'

export type Logger = (message: string) => void

function isPersistedState(v: unknown): v is PersistedState {
  if (!v || typeof v !== 'object') return false
  const s = v as Record<string, unknown>
  const arrays = [
    'customers',
    'externalAccounts',
    'internalAccounts',
    'transactions',
    'quotes',
    'journal',
    'idempotency',
    'jobs'
  ]
  return (
    s.format === STATE_FORMAT &&
    s.version === STATE_VERSION &&
    typeof s.seq === 'number' &&
    !!s.platform &&
    typeof s.platform === 'object' &&
    arrays.every((k) => Array.isArray(s[k]))
  )
}

export type LoadResult =
  | { kind: 'missing' }
  | { kind: 'loaded'; state: PersistedState }
  | { kind: 'corrupt'; movedTo: string; reason: string }

/**
 * The state file: one JSON document, written atomically (temp file in the same folder, fsync, rename, fsync of the
 * folder) and debounced. A file that cannot be read as sandbox state is renamed aside, never overwritten.
 */
export class StateFile {
  private timer: NodeJS.Timeout | undefined
  private writing: Promise<void> = Promise.resolve()
  private dirty = false
  private counter = 0
  private closed = false
  private lastError: unknown

  constructor(
    readonly file: string,
    private readonly snapshot: () => string,
    private readonly log: Logger,
    private readonly debounceMs = 50
  ) {}

  load(now: number): LoadResult {
    if (!existsSync(this.file)) return { kind: 'missing' }
    let reason: string
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown
      if (isPersistedState(parsed)) return { kind: 'loaded', state: parsed }
      reason = `not a ${STATE_FORMAT} document of version ${STATE_VERSION}`
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err)
    }
    const stamp = new Date(now).toISOString().replace(/[:.]/g, '-')
    let movedTo = `${this.file}.corrupt-${stamp}`
    for (let i = 1; existsSync(movedTo); i++) movedTo = `${this.file}.corrupt-${stamp}-${i}`
    renameSync(this.file, movedTo)
    this.log(
      `Local sandbox: the state file ${this.file} could not be read (${reason}). It was kept as ${movedTo}; ` +
        'the sandbox starts with fresh data.'
    )
    return { kind: 'corrupt', movedTo, reason }
  }

  /** Note a change; the file is written at most once per debounce period. */
  markDirty(): void {
    if (this.closed) return
    this.dirty = true
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.flush()
    }, this.debounceMs)
    this.timer.unref()
  }

  /** Write now if anything changed; resolves when the file is on disk. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    if (!this.dirty) return this.writing
    this.dirty = false
    const text = this.snapshot()
    this.writing = this.writing.then(() =>
      this.write(text).catch((err: unknown) => {
        this.lastError = err
        this.dirty = true
        this.log(`Local sandbox: could not save ${this.file}: ${err instanceof Error ? err.message : String(err)}`)
      })
    )
    return this.writing
  }

  get error(): unknown {
    return this.lastError
  }

  async close(): Promise<void> {
    await this.flush()
    this.closed = true
  }

  /** Write synchronously (first save of a fresh state, so the file exists once the server is listening). */
  writeSync(): void {
    const text = this.snapshot()
    mkdirSync(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp-${process.pid}-${++this.counter}`
    const fd = openSync(tmp, 'w', 0o600)
    try {
      writeAllSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, this.file)
    this.dirty = false
  }

  private async write(text: string): Promise<void> {
    mkdirSync(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp-${process.pid}-${++this.counter}`
    const fh = await open(tmp, 'w', 0o600)
    try {
      await fh.writeFile(text, 'utf8')
      await fh.sync()
    } catch (err) {
      await fh.close().catch(() => undefined)
      await unlink(tmp).catch(() => undefined)
      throw err
    }
    await fh.close()
    await rename(tmp, this.file)
    try {
      const dir = await open(dirname(this.file), 'r')
      await dir.sync().catch(() => undefined)
      await dir.close()
    } catch {
      // Directory fsync is best effort (not supported everywhere).
    }
  }
}

function writeAllSync(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8')
  let off = 0
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off)
}
