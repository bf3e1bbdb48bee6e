import { randomBytes } from 'node:crypto'
import { appendFile, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EncryptedLog } from '../../../../src/main/services/cache/encrypted-log'
import { tempDir } from '../../helpers'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('elog')))
afterEach(() => cleanup())

const key = randomBytes(32)
const frames = (r: { frames: Buffer[] }) => r.frames.map((f) => f.toString('utf8'))

describe('EncryptedLog', () => {
  it('appends frames durably and replays them in order; nothing readable is on disk', async () => {
    const file = path.join(dir, 'c.log')
    const first = await EncryptedLog.open(file, key)
    expect(first.outcome).toBe('new')
    await first.log.append(Buffer.from('alpha-PLAINTEXT'))
    await first.log.append(Buffer.from('beta-PLAINTEXT'))
    await first.log.close()
    const bytes = await readFile(file)
    expect(bytes.includes(Buffer.from('PLAINTEXT'))).toBe(false)
    const again = await EncryptedLog.open(file, key)
    expect(again.outcome).toBe('loaded')
    expect(frames(again)).toEqual(['alpha-PLAINTEXT', 'beta-PLAINTEXT'])
    await again.log.append(Buffer.from('gamma'))
    await again.log.close()
    expect(frames(await EncryptedLog.open(file, key))).toEqual(['alpha-PLAINTEXT', 'beta-PLAINTEXT', 'gamma'])
  })

  it('cuts a torn last frame (crash mid-append) and keeps the rest', async () => {
    const file = path.join(dir, 'c.log')
    const { log } = await EncryptedLog.open(file, key)
    await log.append(Buffer.from('one'))
    await log.append(Buffer.from('two'))
    await log.close()
    const size = (await stat(file)).size
    await truncate(file, size - 5)
    const r = await EncryptedLog.open(file, key)
    expect(r.outcome).toBe('torn-tail-cut')
    expect(frames(r)).toEqual(['one'])
    await r.log.append(Buffer.from('three'))
    await r.log.close()
    expect(frames(await EncryptedLog.open(file, key))).toEqual(['one', 'three'])
    // A half-written length prefix is a torn tail too.
    await appendFile(file, Buffer.from([0, 0]))
    expect(frames(await EncryptedLog.open(file, key))).toEqual(['one', 'three'])
  })

  it('sets a file with a damaged middle frame aside and starts empty', async () => {
    const file = path.join(dir, 'c.log')
    const { log } = await EncryptedLog.open(file, key)
    await log.append(Buffer.from('one'))
    await log.append(Buffer.from('two'))
    await log.close()
    const bytes = await readFile(file)
    bytes[52 + 4 + 14]! ^= 0xff // inside the first frame's ciphertext
    await writeFile(file, bytes)
    const r = await EncryptedLog.open(file, key)
    expect(r.outcome).toBe('set-aside')
    expect(r.frames).toEqual([])
    expect(r.setAsideAs).toMatch(/c\.log\.corrupt-/)
    expect((await readdir(dir)).sort()).toEqual(['c.log', path.basename(r.setAsideAs!)].sort())
  })

  it('sets a file encrypted with another key aside as undecryptable', async () => {
    const file = path.join(dir, 'c.log')
    const { log } = await EncryptedLog.open(file, key)
    await log.append(Buffer.from('one'))
    await log.close()
    const r = await EncryptedLog.open(file, randomBytes(32))
    expect(r).toMatchObject({ outcome: 'set-aside', reason: 'wrong key' })
    expect(r.setAsideAs).toMatch(/undecryptable/)
  })

  it('sets garbage aside', async () => {
    const file = path.join(dir, 'c.log')
    await writeFile(file, 'this is not a cache at all, just text that is long enough to look like a header')
    expect((await EncryptedLog.open(file, key)).outcome).toBe('set-aside')
  })

  it('rewrites atomically under a new file id; old frames cannot be spliced in', async () => {
    const file = path.join(dir, 'c.log')
    const { log } = await EncryptedLog.open(file, key)
    await log.append(Buffer.from('old'))
    const before = await readFile(file)
    await log.rewrite([Buffer.from('snap-1'), Buffer.from('snap-2')])
    await log.append(Buffer.from('after'))
    await log.close()
    expect(frames(await EncryptedLog.open(file, key))).toEqual(['snap-1', 'snap-2', 'after'])
    // Append the old file's first frame to the new file: it is not authentic here.
    await appendFile(file, before.subarray(52))
    await appendFile(file, before.subarray(52)) // twice, so the bad frame is not the last one
    expect((await EncryptedLog.open(file, key)).outcome).toBe('set-aside')
  })
})
