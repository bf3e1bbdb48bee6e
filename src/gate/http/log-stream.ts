/**
 * The gate's log lines to a file descriptor (stdout), written in batches by sonic-boom (pino's own destination).
 * pino's default destination writes each line with a synchronous write(2): profiled under `npm run bench -- gate` that
 * write, one per request (the onResponse line), was 28% of the gate's busy CPU (docs/gate.md, CPU per webhook). Here
 * lines wait in memory until BATCH_BYTES are waiting or FLUSH_MS have passed, and are written at exit, synchronously,
 * so a process that exits (even on an uncaught error) writes every line; only a SIGKILL or a machine's crash can lose
 * up to FLUSH_MS of lines.
 */
import SonicBoom from 'sonic-boom'

const FLUSH_MS = 50
// Below sonic-boom's largest single write (maxWrite, 16 KiB), which it requires of minLength.
const BATCH_BYTES = 8 * 1024

export function batchedLog(fd = 1): { write(line: string): void; flush(): void } {
  // sync: the batch is one write(2) that cannot leave the process with lines in flight at exit; it blocks on a full
  // pipe as pino's own would, and retries a non-blocking one that is full (sonic-boom's EAGAIN handling).
  const out = new SonicBoom({ fd, sync: true, minLength: BATCH_BYTES, periodicFlush: FLUSH_MS })
  const flush = (): void => out.flushSync()
  process.on('exit', flush)
  return { write: (line) => void out.write(line), flush }
}
