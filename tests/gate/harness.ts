/* eslint-disable @typescript-eslint/no-explicit-any -- answers under test are untyped JSON, checked by assertions */
/**
 * A real approval gate in front of a real Local sandbox speaking the approval protocol, for tests. One injected clock
 * drives both: the sandbox signs and schedules with it, and the gate checks timestamps and runs its fallback timers on
 * it. Nothing runs on real time: a test moves the clock (`advance`) and the timers due by then fire, in order.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { GateConfig } from '../../src/gate/config'
import type { GateClock } from '../../src/gate/domain/clock'
import { hashToken, newToken } from '../../src/gate/domain/operators'
import { startGateServer, type GateServer } from '../../src/gate/http/server'
import { SqliteGateStore } from '../../src/gate/store/sqlite-store'
import { startTestSandbox, type TestSandbox } from '../support/sandbox'

function pendingTransaction(raw: Buffer): string | undefined {
  try {
    const body = JSON.parse(raw.toString('utf8'))
    return body.type === 'INCOMING_PAYMENT.PENDING' ? body.data?.id : undefined
  } catch {
    return undefined
  }
}

export interface ManualClock extends GateClock {
  /** Moves time on and fires every timer due by then; resolves when what they started has settled. */
  advance(ms: number): void
  /** When each pending timer is due, in ms after the start. */
  pending(): number[]
  start: number
}

export function manualClock(start = Date.parse('2025-10-13T12:00:00Z')): ManualClock {
  let now = start
  const timers: { at: number; fn: () => void; order: number }[] = []
  let order = 0
  return {
    start,
    now: () => now,
    after(ms, fn) {
      const t = { at: now + ms, fn, order: order++ }
      timers.push(t)
      return () => {
        const i = timers.indexOf(t)
        if (i >= 0) timers.splice(i, 1)
      }
    },
    advance(ms) {
      const until = now + ms
      for (;;) {
        const due = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0]
        if (!due) break
        timers.splice(timers.indexOf(due), 1)
        now = due.at
        due.fn()
      }
      now = until
    },
    pending: () => timers.map((t) => t.at - start).sort((a, b) => a - b)
  }
}

export interface Seen {
  raw: Buffer
  signature: string | undefined
  answer: { status: number; body: any }
}

export interface Rig {
  sb: TestSandbox
  gate: GateServer
  store: SqliteGateStore
  clock: ManualClock
  token: string
  dbFile: string
  /** The gate's JSON log lines. */
  logs: string[]
  /** Every webhook the gate answered, with its bytes and answer. */
  seen: Seen[]
  api(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>
  ): Promise<{ status: number; body: any }>
  op(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>
  /** A customer of the sandbox (fullName decides KYC and which receiver fields are requested). */
  customer(extra?: Record<string, unknown>): Promise<string>
  /** An incoming payment to the customer; resolves when the gate's answer has been applied by the sandbox. */
  receive(
    customerId: string,
    amount: number,
    sender?: string
  ): Promise<{ id: string; status: string; tx: any; webhook: Seen }>
  /** The approval webhook of `txId` as the gate answered it. */
  webhookOf(txId: string): Seen
  close(): Promise<void>
}

export async function startRig(overrides: Record<string, unknown> = {}): Promise<Rig> {
  const clock = manualClock()
  const sb = await startTestSandbox({ timeScale: 1, now: clock.now })
  const dir = mkdtempSync(join(tmpdir(), 'gate-test-'))
  const dbFile = join(dir, 'gate.db')
  const store = new SqliteGateStore({ file: dbFile, now: clock.now })
  const config = GateConfig.parse({
    port: 0,
    database: dbFile,
    webhookPublicKey: sb.server.webhooks.publicKeyPem,
    serviceBaseUrl: sb.baseUrl,
    serviceTokenId: sb.tokenId,
    serviceClientSecret: sb.clientSecret,
    receiverInfoKey: randomBytes(32).toString('hex'),
    ...overrides
  })
  const logs: string[] = []
  const gate = await startGateServer({ config, store, clock, logStream: { write: (line) => void logs.push(line) } })
  const seen: Seen[] = []
  const waiting = new Map<string, () => void>()
  const handle = gate.gate.handleWebhook.bind(gate.gate)
  gate.gate.handleWebhook = async (raw, signature) => {
    const answer = await handle(raw, signature)
    seen.push({ raw, signature, answer: answer as Seen['answer'] })
    const txId = pendingTransaction(raw)
    if (txId) waiting.get(txId)?.()
    return answer
  }
  /** Resolves once the gate has answered the approval webhook of `txId` (already, or when it comes). */
  const answered = (txId: string): Promise<void> =>
    seen.some((s) => pendingTransaction(s.raw) === txId)
      ? Promise.resolve()
      : new Promise((resolve) => waiting.set(txId, resolve))
  const token = newToken()
  await store.addOperator('Ana', hashToken(token))

  const call = async (url: string, method: string, body: unknown, headers: Record<string, string>) => {
    const r = await fetch(url, {
      method,
      headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) })
    })
    const text = await r.text()
    return { status: r.status, body: text ? JSON.parse(text) : undefined }
  }
  const api: Rig['api'] = (method, path, body, headers = {}) =>
    call(sb.baseUrl + path, method, body, { authorization: sb.authorization, ...headers })
  const op: Rig['op'] = (method, path, body, t = token) =>
    call(gate.url + path, method, body, { authorization: `Bearer ${t}` })

  const webhookOf = (txId: string): Seen => {
    const found = seen.find((x) => pendingTransaction(x.raw) === txId)
    if (!found) throw new Error(`no approval webhook for ${txId}`)
    return found
  }

  const set = await api('PATCH', '/config', { webhookEndpoint: `${gate.url}/webhooks` })
  if (set.status !== 200) throw new Error(`PATCH /config answered ${set.status}`)
  await sb.server.webhooks.idle()

  return {
    sb,
    gate,
    store,
    clock,
    token,
    dbFile,
    logs,
    seen,
    webhookOf,
    api,
    op,
    customer: async (extra = {}) => {
      const r = await api('POST', '/customers', {
        customerType: 'INDIVIDUAL',
        region: 'US',
        fullName: 'Test Person',
        ...extra
      })
      if (r.status !== 201) throw new Error(`customer: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body.id as string
    },
    receive: async (customerId, amount, sender = '$success.usd@sandbox.uma.money') => {
      const r = await api('POST', '/sandbox/uma/receive', {
        senderUmaAddress: sender,
        customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: amount
      })
      if (r.status !== 200) throw new Error(`receive: ${r.status} ${JSON.stringify(r.body)}`)
      // The sandbox asks after answering the receive: wait for the gate's answer, then for the sandbox to apply it.
      await answered(r.body.id)
      await sb.server.webhooks.idle()
      const tx = (await api('GET', `/transactions/${r.body.id}`)).body
      return { id: r.body.id as string, status: tx.status as string, tx, webhook: webhookOf(r.body.id) }
    },
    close: async () => {
      await sb.close()
      await gate.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
