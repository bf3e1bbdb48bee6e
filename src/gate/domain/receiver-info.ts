/**
 * Where the answer to "who is the receiver?" comes from: the per-customer table operators edit (sealed with
 * AES-256-GCM under the gate's key, so the database file alone reveals nothing), else the platform's own lookup over
 * HTTP. Never the service's customer record: the service asks precisely because it does not have these fields.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { ReceiverInfo } from '../../shared/gate'
import type { GateStore } from '../store/store'
import { budget, type GateClock } from './clock'

export type Info = Record<string, unknown>

const VERSION = 1

export class ReceiverInfoSeal {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The receiver information key must be 32 bytes')
  }

  /** version (1 byte) | iv (12) | tag (16) | ciphertext; the customer id is bound as associated data. */
  seal(customerId: string, info: Info): Buffer {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    cipher.setAAD(Buffer.from(customerId, 'utf8'))
    const body = Buffer.concat([cipher.update(JSON.stringify(info), 'utf8'), cipher.final()])
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body])
  }

  /** Throws when the row was sealed under another key, for another customer, or changed. */
  open(customerId: string, sealed: Buffer): Info {
    if (sealed[0] !== VERSION || sealed.length < 29) throw new Error('The receiver information row is not readable')
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(1, 13))
    decipher.setAAD(Buffer.from(customerId, 'utf8'))
    decipher.setAuthTag(sealed.subarray(13, 29))
    const text = Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8')
    return JSON.parse(text) as Info
  }
}

interface LookupRequest {
  customerId: string
  platformCustomerId: string | null
  fields: string[]
}

interface ReceiverInfoSourceOptions {
  store: GateStore
  seal: ReceiverInfoSeal
  /** The platform's lookup: POSTed `{ customerId, platformCustomerId, fields }`, answers a JSON object of fields. */
  lookupUrl?: string | undefined
  lookupHeaders?: Record<string, string>
  clock: GateClock
  log: (message: string) => void
}

const given = (v: unknown): boolean => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '')

export class ReceiverInfoSource {
  constructor(private readonly o: ReceiverInfoSourceOptions) {}

  /**
   * Everything known about the customer: the table first, else the lookup (within `timeoutMs`); {} when neither.
   * `sealed` is the table's row when the caller read it already (store.webhookFacts), null when there is none.
   */
  async find(
    req: LookupRequest,
    timeoutMs: number,
    sealed?: Buffer | null
  ): Promise<{ info: Info; from: 'table' | 'lookup' | 'none' }> {
    const row = sealed === undefined ? (await this.o.store.getReceiverInfo(req.customerId))?.sealed : sealed
    if (row) {
      try {
        return { info: this.o.seal.open(req.customerId, row), from: 'table' }
      } catch {
        this.o.log(`receiver information of ${req.customerId} cannot be opened with this key; it is not used`)
      }
    }
    if (!this.o.lookupUrl || req.fields.length === 0) return { info: {}, from: 'none' }
    const b = budget(this.o.clock, timeoutMs)
    try {
      const res = await fetch(this.o.lookupUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.o.lookupHeaders },
        body: JSON.stringify(req),
        signal: b.signal,
        redirect: 'error'
      })
      if (!res.ok) {
        this.o.log(`the receiver lookup answered ${res.status}`)
        return { info: {}, from: 'none' }
      }
      const body = (await res.json()) as unknown
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return { info: {}, from: 'none' }
      return { info: body as Info, from: 'lookup' }
    } catch (err) {
      this.o.log(`the receiver lookup failed: ${err instanceof Error ? err.name : 'error'}`)
      return { info: {}, from: 'none' }
    } finally {
      b.done()
    }
  }

  /**
   * The operators' table row, opened, for Paydesk's editor: null when there is none, 'unreadable' when it was sealed
   * under another key (or altered). Never the lookup: operators edit only what the gate keeps.
   */
  async get(customerId: string): Promise<ReceiverInfo | null | 'unreadable'> {
    const row = await this.o.store.getReceiverInfo(customerId)
    if (!row) return null
    try {
      const info = this.o.seal.open(customerId, row.sealed)
      return { customerId, info, updatedBy: row.updatedBy, updatedAt: row.updatedAt }
    } catch {
      return 'unreadable'
    }
  }

  async put(customerId: string, info: Info, actor: string) {
    return this.o.store.putReceiverInfo(customerId, this.o.seal.seal(customerId, info), actor)
  }
}

/** receiverCustomerInfo holding exactly the requested fields that are known, and the mandatory ones that are not. */
export function pickRequested(
  requested: { name: string; mandatory: boolean }[],
  info: Info
): { picked: Record<string, unknown>; missing: string[] } {
  const picked: Record<string, unknown> = {}
  const missing: string[] = []
  for (const f of requested) {
    const v = info[f.name]
    if (given(v)) picked[f.name] = v
    else if (f.mandatory) missing.push(f.name)
  }
  return { picked, missing }
}
