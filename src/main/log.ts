import { appendFileSync, chmodSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** One log file grows to this size, then becomes `paydesk.1.log` (replacing the older one): at most twice this. */
export const MAX_LOG_BYTES = 2 * 1024 * 1024

export type Log = (message: string) => void

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

export function redact(text: string): string {
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
