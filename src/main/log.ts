import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Plain line log under the data folder. Callers pass sentences, never request headers or bodies; as a last guard,
 * anything shaped like a Basic/Bearer credential is masked before it is written.
 */
export function createLogger(dir: string, echo: (line: string) => void = () => {}): (message: string) => void {
  let ready = false
  return (message: string) => {
    const line = `${new Date().toISOString()} ${redact(message)}\n`
    echo(line)
    try {
      if (!ready) {
        mkdirSync(dir, { recursive: true })
        ready = true
      }
      appendFileSync(join(dir, 'paydesk.log'), line)
    } catch {
      // Logging must never take the app down.
    }
  }
}

export function redact(text: string): string {
  return text.replace(/\b(Basic|Bearer)\s+[A-Za-z0-9+/=._-]+/gi, '$1 [redacted]')
}
