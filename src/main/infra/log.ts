import { appendFileSync, chmodSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** One log file grows to this size, then becomes `paydesk.1.log` (replacing the older one): at most twice this. */
const MAX_LOG_BYTES = 2 * 1024 * 1024

type Log = (message: string) => void

/**
 * Plain line log under the data folder, readable only by its owner. Callers pass sentences, never request headers or
 * bodies; as a last guard, anything shaped like a Basic/Bearer credential is masked before it is written. Refused
 * requests can arrive without end, so the file rotates instead of growing without bound.
 */
export function createLogger(dir: string, echo: (line: string) => void = () => {}, maxBytes = MAX_LOG_BYTES): Log {
  const file = join(dir, 'paydesk.log')
  let size: number | null = null
  return (message: string) => {
    const line = `${new Date().toISOString()} ${redact(message)}\n`
    echo(line)
    try {
      if (size === null) {
        mkdirSync(dir, { recursive: true, mode: 0o700 })
        size = fileSize(file)
        if (size > 0) chmodSync(file, 0o600)
      }
      if (size > 0 && size + Buffer.byteLength(line) > maxBytes) {
        renameSync(file, join(dir, 'paydesk.1.log'))
        size = 0
      }
      appendFileSync(file, line, { mode: 0o600 })
      size += Buffer.byteLength(line)
    } catch {
      // Logging must never take the app down.
    }
  }
}

function fileSize(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

/** A log that hostile traffic may call without end: see `rateLimited`. */
interface RateLimitedLog extends Log {
  /** Writes the count of lines left out so far, if any (at close). */
  flush(): void
}

/**
 * For lines that traffic from outside can repeat without end (a refused request): the first `burst` of each interval
 * are written, the rest only counted, and one line says how many were left out, when the next one comes after the
 * interval or at `flush`. 30,000 refused requests rotated the whole log away in 3.6 s; now they cost a few lines.
 */
export function rateLimited(
  log: Log,
  what: string,
  o: { burst?: number; intervalMs?: number; now?: () => number } = {}
): RateLimitedLog {
  const burst = o.burst ?? 5
  const intervalMs = o.intervalMs ?? 60_000
  const now = o.now ?? Date.now
  let since = now()
  let written = 0
  let leftOut = 0
  const flush = () => {
    if (leftOut > 0) log(`${leftOut} more ${what} since ${new Date(since).toISOString()} were not logged one by one`)
    leftOut = 0
  }
  const limited = (message: string) => {
    if (now() - since >= intervalMs) {
      flush()
      since = now()
      written = 0
    }
    if (written < burst) {
      written++
      log(message)
    } else leftOut++
  }
  return Object.assign(limited, { flush })
}

function redact(text: string): string {
  return text.replace(/\b(Basic|Bearer)\s+[A-Za-z0-9+/=._-]+/gi, '$1 [redacted]')
}

/**
 * A crash is written to the log with its stack before the process ends, so an operator's bug report has it. An
 * unhandled rejection is logged too; Node then ends the process as it would have.
 */
export function logCrashes(log: Log, exit: (code: number) => void = (code) => process.exit(code)): void {
  process.on('uncaughtException', (error) => {
    log(`crash: ${describeError(error)}`)
    exit(1)
  })
  process.on('unhandledRejection', (reason) => {
    log(`crash (unhandled rejection): ${describeError(reason)}`)
    exit(1)
  })
}

export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error)
}
