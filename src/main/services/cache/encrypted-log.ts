import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { setAside, syncDir, writeFileAtomic } from '../atomic-file'

/**
 * An append-only, AES-256-GCM encrypted record log: the at-rest format of a profile's offline cache.
 *
 * Why a log and not one encrypted JSON file: a sync tick that sees three changed transactions must not rewrite (and
 * re-encrypt) 100,000 of them. Each batch of changes becomes one authenticated frame appended and fsynced; reading
 * replays the frames; when the appended bytes outgrow the live data the log is compacted into a fresh snapshot written
 * with temp + fsync + rename, so compaction is atomic too.
 *
 * Why this is crash-safe: a frame is applied only if its GCM tag verifies. A crash in the middle of an append leaves a
 * short or unauthenticated LAST frame, which is cut off on open (the batch is lost, the cache is still consistent and
 * the next sync fetches it again). An unauthenticated frame anywhere else, a bad header, or a wrong key means the file
 * is damaged or not ours: it is set aside (renamed, kept for inspection) and the cache is rebuilt from the service.
 *
 * Layout: header = magic(8) | fileId(16) | checkIv(12) | checkTag(16) — the check is GCM over nothing with the file id
 * as AAD, so a wrong key is recognised before any frame is read. Frame = u32 length | iv(12) | ciphertext | tag(16),
 * with AAD = fileId | u32 frame sequence number, so frames cannot be reordered, dropped from the middle or moved to
 * another file unnoticed.
 */

const MAGIC = Buffer.from('PDCLOG01', 'ascii')
const HEADER_LEN = 8 + 16 + 12 + 16
const IV_LEN = 12
const TAG_LEN = 16
const MAX_FRAME = 256 * 1024 * 1024

export type OpenOutcome = 'new' | 'loaded' | 'torn-tail-cut' | 'set-aside'

export interface OpenResult {
  log: EncryptedLog
  /** Plaintext of every valid frame, in order. */
  frames: Buffer[]
  outcome: OpenOutcome
  /** Where a damaged file was moved, when outcome is set-aside. */
  setAsideAs?: string
  reason?: string
}

function aad(fileId: Buffer, seq: number): Buffer {
  const b = Buffer.alloc(20)
  fileId.copy(b, 0)
  b.writeUInt32BE(seq >>> 0, 16)
  return b
}

function seal(key: Buffer, plaintext: Buffer, additional: Buffer): Buffer {
  const iv = randomBytes(IV_LEN)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(additional)
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([iv, ct, cipher.getAuthTag()])
}

function open(key: Buffer, sealed: Buffer, additional: Buffer): Buffer | undefined {
  if (sealed.length < IV_LEN + TAG_LEN) return undefined
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_LEN))
    decipher.setAAD(additional)
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_LEN))
    return Buffer.concat([decipher.update(sealed.subarray(IV_LEN, sealed.length - TAG_LEN)), decipher.final()])
  } catch {
    return undefined
  }
}

function header(key: Buffer, fileId: Buffer): Buffer {
  const check = seal(key, Buffer.alloc(0), fileId)
  return Buffer.concat([MAGIC, fileId, check])
}

function frame(key: Buffer, fileId: Buffer, seq: number, plaintext: Buffer): Buffer {
  const sealed = seal(key, plaintext, aad(fileId, seq))
  const len = Buffer.alloc(4)
  len.writeUInt32BE(sealed.length)
  return Buffer.concat([len, sealed])
}

export class EncryptedLog {
  private handle: fs.FileHandle | undefined
  private chain: Promise<unknown> = Promise.resolve()
  /** Bytes of the file right now. */
  size: number

  private constructor(
    readonly file: string,
    private readonly key: Buffer,
    private fileId: Buffer,
    private seq: number,
    size: number
  ) {
    this.size = size
  }

  static async open(file: string, key: Buffer): Promise<OpenResult> {
    if (key.length !== 32) throw new Error('cache key must be 32 bytes')
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
    let data: Buffer | undefined
    try {
      data = await fs.readFile(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if (!data) return { log: await EncryptedLog.create(file, key), frames: [], outcome: 'new' }

    const damaged = async (reason: string): Promise<OpenResult> => {
      const where = await setAside(file, reason === 'wrong key' ? 'undecryptable' : 'corrupt')
      return {
        log: await EncryptedLog.create(file, key),
        frames: [],
        outcome: 'set-aside',
        reason,
        ...(where !== undefined && { setAsideAs: where })
      }
    }
    if (data.length < HEADER_LEN || !data.subarray(0, 8).equals(MAGIC)) return damaged('not a Paydesk cache file')
    const fileId = Buffer.from(data.subarray(8, 24))
    if (!open(key, data.subarray(24, HEADER_LEN), fileId)) return damaged('wrong key')

    const frames: Buffer[] = []
    let offset = HEADER_LEN
    let seq = 0
    let tornAt: number | undefined
    while (offset < data.length) {
      if (data.length - offset < 4) {
        tornAt = offset
        break
      }
      const len = data.readUInt32BE(offset)
      const end = offset + 4 + len
      if (len > MAX_FRAME || end > data.length) {
        tornAt = offset
        break
      }
      const plain = open(key, data.subarray(offset + 4, end), aad(fileId, seq))
      if (!plain) {
        if (end === data.length) {
          tornAt = offset
          break
        }
        return damaged(`frame ${seq} failed authentication`)
      }
      frames.push(plain)
      seq++
      offset = end
    }
    let size = data.length
    if (tornAt !== undefined) {
      await fs.truncate(file, tornAt)
      size = tornAt
    }
    const log = new EncryptedLog(file, key, fileId, seq, size)
    return { log, frames, outcome: tornAt !== undefined ? 'torn-tail-cut' : 'loaded' }
  }

  private static async create(file: string, key: Buffer): Promise<EncryptedLog> {
    const fileId = randomBytes(16)
    const head = header(key, fileId)
    await writeFileAtomic(file, head)
    return new EncryptedLog(file, key, fileId, 0, head.length)
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work)
    this.chain = run.catch(() => {})
    return run
  }

  /** Appends one authenticated frame and makes it durable before resolving. */
  append(plaintext: Buffer): Promise<void> {
    return this.serial(async () => {
      const bytes = frame(this.key, this.fileId, this.seq, plaintext)
      this.handle ??= await fs.open(this.file, 'a', 0o600)
      try {
        await this.handle.write(bytes)
        await this.handle.datasync()
      } catch (error) {
        // Cut a partial write back off so the next append does not land after garbage.
        await fs.truncate(this.file, this.size).catch(() => {})
        throw error
      }
      this.seq++
      this.size += bytes.length
    })
  }

  /** Replaces the whole log with these frames, atomically (temp + fsync + rename), under a new file id. */
  rewrite(frames: Buffer[]): Promise<void> {
    return this.rewriteWith(async () => frames)
  }

  /** Like rewrite, with the frames built when the rewrite's turn comes (after every append queued before it). */
  rewriteWith(build: () => Promise<Buffer[]>): Promise<void> {
    return this.serial(async () => {
      const frames = await build()
      const fileId = randomBytes(16)
      const parts = [header(this.key, fileId), ...frames.map((f, i) => frame(this.key, fileId, i, f))]
      const all = Buffer.concat(parts)
      await this.handle?.close()
      this.handle = undefined
      await writeFileAtomic(this.file, all)
      this.fileId = fileId
      this.seq = frames.length
      this.size = all.length
    })
  }

  async close(): Promise<void> {
    await this.serial(async () => {
      await this.handle?.close()
      this.handle = undefined
    })
  }

  static async remove(file: string): Promise<void> {
    await fs.rm(file, { force: true })
    await syncDir(path.dirname(file))
  }
}
