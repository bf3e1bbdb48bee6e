/**
 * The gate's log lines to a file descriptor (stdout), written in batches. pino's default destination writes each line
 * with a synchronous write(2): profiled under `npm run bench -- gate` that write, one per request (the onResponse
 * line), was 28% of the gate's busy CPU (docs/gate.md, CPU per webhook). Lines are kept in memory and written together
 * once per turn of the event loop's timers (at most FLUSH_MS later) or when BATCH_BYTES are waiting, and at exit,
 * synchronously, so a process that exits (even on an uncaught error) writes every line; only a SIGKILL or a machine's
 * crash can lose up to FLUSH_MS of lines.
 */
import { writeSync } from 'node:fs'

const FLUSH_MS = 50
const BATCH_BYTES = 64 * 1024

export function batchedLog(fd = 1): { write(line: string): void; flush(): void } {
  let waiting: string[] = []
  let bytes = 0
  let timer: NodeJS.Timeout | undefined
  const flush = (): void => {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (waiting.length === 0) return
    const text = waiting.join('')
    waiting = []
    bytes = 0
    // Synchronous, but one call for a whole batch; a pipe or terminal that is full blocks as pino's own would.
    let buf = Buffer.from(text, 'utf8')
    while (buf.length > 0) {
      try {
        buf = buf.subarray(writeSync(fd, buf))
      } catch (err) {
        // A non-blocking pipe that is full: try again, as sonic-boom does, rather than lose the lines.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err
      }
    }
  }
  process.on('exit', flush)
  return {
    write(line) {
      waiting.push(line)
      bytes += line.length
      if (bytes >= BATCH_BYTES) flush()
      else timer ??= setTimeout(flush, FLUSH_MS).unref()
    },
    flush
  }
}
