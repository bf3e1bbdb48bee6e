import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { writeFileAtomic } from './atomic-file'
import { readOrSetAside, type Damage } from './damage'

/**
 * A small JSON document encrypted with AES-256-GCM under a profile's cache key and replaced atomically on every write
 * (temp + fsync + rename). Used for the transfer journal, which is small and must never be
 * half-written. Layout: magic(8) | iv(12) | ciphertext | tag(16); the magic doubles as AAD.
 */
const MAGIC = Buffer.from('PDSEAL01', 'ascii')

export function sealJson(key: Buffer, value: unknown): Buffer {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(MAGIC)
  const ct = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
  return Buffer.concat([MAGIC, iv, ct, cipher.getAuthTag()])
}

export function openJson(key: Buffer, data: Buffer): unknown {
  if (data.length < 8 + 12 + 16 || !data.subarray(0, 8).equals(MAGIC)) throw new Error('not a sealed Paydesk file')
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(8, 20))
  decipher.setAAD(MAGIC)
  decipher.setAuthTag(data.subarray(data.length - 16))
  const plain = Buffer.concat([decipher.update(data.subarray(20, data.length - 16)), decipher.final()])
  return JSON.parse(plain.toString('utf8'))
}

/**
 * Reads a sealed file; a damaged or undecryptable one (or a folder in its place) is set aside (kept) and reported,
 * never thrown: `setAsideAs` tells the caller to tell the operator.
 */
export async function readSealed(
  file: string,
  key: Buffer,
  log: (m: string) => void
): Promise<{ value: unknown; setAsideAs?: string }> {
  let kept: Damage | undefined
  const value = await readOrSetAside(
    file,
    'undecryptable',
    (data) => openJson(key, data),
    (damage) => (kept = damage)
  )
  if (!kept) return { value }
  log(`${file} was ${kept.why} and was set aside`)
  return { value: undefined, ...(kept.setAsideAs !== undefined && { setAsideAs: kept.setAsideAs }) }
}

export async function writeSealed(file: string, key: Buffer, value: unknown): Promise<void> {
  await writeFileAtomic(file, sealJson(key, value))
}
