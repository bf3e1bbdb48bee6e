import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { batchedLog } from '../../../src/gate/http/log-stream'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function logFile(): { fd: number; read: () => string; close: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gate-log-'))
  dirs.push(dir)
  const file = join(dir, 'gate.log')
  const fd = openSync(file, 'w')
  return { fd, read: () => readFileSync(file, 'utf8'), close: () => closeSync(fd) }
}

describe('the gate log batched to a descriptor', () => {
  it('holds lines until flushed, then writes them all in order', () => {
    const f = logFile()
    const log = batchedLog(f.fd)
    log.write('{"msg":"one"}\n')
    log.write('{"msg":"two é"}\n')
    expect(f.read()).toBe('')
    log.flush()
    expect(f.read()).toBe('{"msg":"one"}\n{"msg":"two é"}\n')
    log.flush()
    expect(f.read()).toBe('{"msg":"one"}\n{"msg":"two é"}\n')
    f.close()
  })

  it('writes at once when a batch is full, without waiting for its timer', () => {
    const f = logFile()
    const log = batchedLog(f.fd)
    const line = `${'x'.repeat(1023)}\n`
    for (let i = 0; i < 64; i++) log.write(line)
    expect(f.read()).toBe(line.repeat(64))
    log.flush()
    f.close()
  })
})
