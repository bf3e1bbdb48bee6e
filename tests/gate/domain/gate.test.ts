/**
 * One commit per webhook (store.settleWebhook): the lookups come first, then the claim, the decision and the answer are
 * written together or not at all. Two gates share one SQLite file here as two replicas would share a database; every
 * race is staged with held promises (a lookup or a commit that waits for the test), never with timing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Gate, type GateAnswer } from '../../../src/gate/domain/gate'
import type { ReceiverInfoSource } from '../../../src/gate/domain/receiver-info'
import { publicKeyFrom } from '../../../src/gate/domain/signature'
import type { ServiceClient } from '../../../src/gate/service/client'
import { SqliteGateStore } from '../../../src/gate/store/sqlite-store'
import type { GateStore } from '../../../src/gate/store/store'
import { newSigningKeyPair, signBody } from '../../../src/sandbox/state/webhook-signing'
import type { GateRules } from '../../../src/shared/gate'
import { manualClock, type ManualClock } from '../harness'

const keys = newSigningKeyPair()
const SENDER = '$alice@sender.example'
const RULES: GateRules = {
  rules: [
    {
      name: 'known sender',
      maxAmountByCurrency: { USD: 1_000_000 },
      allowedSenders: [SENDER],
      requireKycApproved: false,
      action: 'approve',
      fallback: 'reject'
    }
  ],
  otherwise: 'reject',
  otherwiseFallback: 'reject'
}

interface Held<T> {
  promise: Promise<T>
  release(value: T): void
}
function held<T>(): Held<T> {
  let release: (value: T) => void = () => undefined
  const promise = new Promise<T>((r) => (release = r))
  return { promise, release }
}

/** An approval webhook for `txId`, signed over its exact bytes at the clock's time. */
function webhook(clock: ManualClock, webhookId: string, txId: string, sender = SENDER) {
  const body = Buffer.from(
    JSON.stringify({
      id: webhookId,
      type: 'INCOMING_PAYMENT.PENDING',
      timestamp: new Date(clock.now()).toISOString(),
      data: {
        id: txId,
        type: 'INCOMING',
        status: 'PENDING',
        customerId: 'Customer:1',
        platformCustomerId: 'customer-1',
        source: { sourceType: 'UMA_ADDRESS', umaAddress: sender },
        destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:1' },
        receivedAmount: { amount: 5_000, currency: { code: 'USD', decimals: 2 } },
        requestedReceiverCustomerInfoFields: [{ name: 'FULL_NAME', mandatory: true }]
      }
    })
  )
  return { body, signature: signBody(keys, body) }
}

let dir: string
let clock: ManualClock
const stores: SqliteGateStore[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-settle-'))
  clock = manualClock()
})
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A connection of its own to the shared file, as a replica (or the gate after a restart) has. */
function openStore(): SqliteGateStore {
  const store = new SqliteGateStore({ file: join(dir, 'gate.db'), now: clock.now })
  stores.push(store)
  return store
}

/** A gate whose receiver lookup answers `info` once the test releases it (`lookup`), or at once. */
function gateOn(store: GateStore, info: Record<string, string>, lookup?: Held<void>): Gate {
  const receiverInfo = {
    find: async () => {
      await lookup?.promise
      return { info, from: 'table' as const }
    }
  } as unknown as ReceiverInfoSource
  const service = {
    kycStatus: async () => null,
    approve: async () => ({ ok: true, status: 200 }),
    reject: async () => ({ ok: true, status: 200 })
  } as unknown as ServiceClient
  return new Gate({
    store,
    service,
    receiverInfo,
    clock,
    publicKey: publicKeyFrom(keys.publicKeyPem),
    marginMs: 4000,
    deadlineMs: 5000,
    toleranceMs: 300_000,
    lookupTimeoutMs: 1500,
    log: () => undefined
  })
}

async function kinds(store: GateStore): Promise<string[]> {
  return (await store.readLog(0, 1000)).map((e) => e.kind)
}

async function decisions(store: GateStore) {
  return (await store.readLog(0, 1000)).filter((e) => e.kind === 'decision').map((e) => [e.actor, e.data])
}

describe('one commit per webhook', () => {
  it('a delivery that loses the claim at commit answers from the stored answer and decides nothing', async () => {
    const storeA = openStore()
    await storeA.putRules(RULES, 'operator:Ana')
    const storeB = openStore()
    const lookupA = held<void>()
    const lookupB = held<void>()
    // Replica B would answer 422 (its lookup lacks FULL_NAME); replica A approves.
    const gateA = gateOn(storeA, { FULL_NAME: 'Rae Receiver' }, lookupA)
    const gateB = gateOn(storeB, {}, lookupB)
    const w = webhook(clock, 'Webhook:dup', 'Transaction:dup')
    const answerA = gateA.handleWebhook(w.body, w.signature)
    const answerB = gateB.handleWebhook(w.body, w.signature)
    lookupA.release()
    const a = await answerA
    expect(a).toEqual({ status: 200, body: { receiverCustomerInfo: { FULL_NAME: 'Rae Receiver' } } })
    lookupB.release()
    const b: GateAnswer = await answerB
    expect(b).toEqual(a)
    expect(await kinds(storeB)).toEqual(['rules', 'webhook', 'decision'])
    expect(await decisions(storeB)).toEqual([
      ['rule:known sender', expect.objectContaining({ transactionId: 'Transaction:dup', outcome: 'approved' })]
    ])
  })

  it('a gate that stops between its lookups and its commit leaves no claim and no decision: a redelivery is decided afresh', async () => {
    const before = openStore()
    await before.putRules(RULES, 'operator:Ana')
    const never = held<void>()
    const crashed = gateOn(before, { FULL_NAME: 'Rae Receiver' }, never)
    const w = webhook(clock, 'Webhook:crash', 'Transaction:crash')
    void crashed.handleWebhook(w.body, w.signature)
    // The lookup is held for good: this gate never reaches its commit, as if the process died there.
    await Promise.resolve()
    expect(await before.seenWebhook('Webhook:crash')).toBeNull()
    expect(await kinds(before)).toEqual(['rules'])

    const after = openStore()
    const restarted = gateOn(after, { FULL_NAME: 'Rae Receiver' })
    const answer = await restarted.handleWebhook(w.body, w.signature)
    expect(answer.status).toBe(200)
    expect(await kinds(after)).toEqual(['rules', 'webhook', 'decision'])
    expect(await after.seenWebhook('Webhook:crash')).toEqual({ answer })
  })

  it('a replay is answered from the store without a lookup', async () => {
    const store = openStore()
    await store.putRules(RULES, 'operator:Ana')
    let lookups = 0
    const gate = gateOn(store, { FULL_NAME: 'Rae Receiver' })
    const counting = Object.create(store) as SqliteGateStore
    counting.getRules = async () => {
      lookups++
      return store.getRules()
    }
    const replica = gateOn(counting, { FULL_NAME: 'Rae Receiver' })
    const w = webhook(clock, 'Webhook:replay', 'Transaction:replay')
    const first = await gate.handleWebhook(w.body, w.signature)
    expect(await replica.handleWebhook(w.body, w.signature)).toEqual(first)
    expect(lookups).toBe(0)
    expect(await kinds(store)).toEqual(['rules', 'webhook', 'decision'])
  })

  it('a pre-approval taken by another payment between the read and the commit is not used twice: the payment is decided again', async () => {
    const store = openStore()
    await store.putRules({ ...RULES, rules: [] }, 'operator:Ana')
    const { preApproval } = await store.addPreApproval(
      {
        customerId: 'Customer:1',
        currency: 'USD',
        minAmount: 0,
        maxAmount: 10_000,
        expiresAt: new Date(clock.now() + 3_600_000).toISOString()
      },
      'operator:Ana'
    )
    // Replica A's first commit waits for the test; replica B commits at once.
    const commitA = held<void>()
    let heldOnce = false
    const slowStore = Object.create(store) as SqliteGateStore
    slowStore.settleWebhook = async (w) => {
      if (!heldOnce) {
        heldOnce = true
        await commitA.promise
      }
      return store.settleWebhook(w)
    }
    const gateA = gateOn(slowStore, { FULL_NAME: 'Rae Receiver' })
    const gateB = gateOn(store, { FULL_NAME: 'Rae Receiver' })
    const wA = webhook(clock, 'Webhook:a', 'Transaction:a')
    const wB = webhook(clock, 'Webhook:b', 'Transaction:b')
    const answerA = gateA.handleWebhook(wA.body, wA.signature)
    // A has read the pre-approval and waits at its commit: B reads the same one and takes it first.
    for (let turns = 0; !heldOnce && turns < 1000; turns++) await Promise.resolve()
    expect(heldOnce).toBe(true)
    expect((await gateB.handleWebhook(wB.body, wB.signature)).status).toBe(200)
    commitA.release()
    expect((await answerA).status).toBe(403)

    expect((await store.listPreApprovals()).map((p) => [p.id, p.usedBy])).toEqual([[preApproval.id, 'Transaction:b']])
    expect(await decisions(store)).toEqual([
      [
        `pre-approval:${preApproval.id}`,
        expect.objectContaining({ transactionId: 'Transaction:b', outcome: 'approved' })
      ],
      ['otherwise', expect.objectContaining({ transactionId: 'Transaction:a', outcome: 'rejected' })]
    ])
  })
})
