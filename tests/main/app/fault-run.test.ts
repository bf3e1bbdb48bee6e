import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FaultRuleInput } from '../../../src/sandbox/http/faults'
import { realClock } from '../../../src/main/domain/sync/poll-scheduler'
import type { TransferSendInput } from '../../../src/shared/ipc/channels/data'
import { requireRealKeyring } from '../../support/keyring'
import { backendAgainstSandbox, moneySetup, sandboxApi, startBackend } from '../sandbox-env'

requireRealKeyring()

/*
 * The fault run of the hardening issue: trials of every way an answer can go missing, each followed by what the
 * operator can do in Paydesk, then a count of the transfers that landed on the service for that payment. Exactly one
 * every time. The counts are printed so a run can be reported.
 */
const TRIALS = 3
const HOUR = 60 * 60_000

let offset = 0
const now = () => Date.now() + offset
const clock = { ...realClock, now }
let accounts: { internalId: string; externalId: string }
let nextAmount = 10_000
const counts: Record<string, number[]> = {}

// Registered before the backend's hooks, so the counts print once the backend has closed.
afterAll(() => {
  const lines = Object.entries(counts).map(
    ([name, c]) => `  ${name.padEnd(48)} ${c.join(' ')}   ${c.every((n) => n === 1) ? 'exactly once' : 'FAILED'}`
  )
  console.log(`\nFault run: transfers landed per trial (${TRIALS} trials each)\n${lines.join('\n')}`)
})
const env = backendAgainstSandbox('fault-run', { once: true, sandbox: { now }, backend: { clock }, profile: true })
beforeAll(async () => {
  accounts = await moneySetup(env.server, 100_000_000)
})

function payment(): TransferSendInput {
  return {
    actionId: randomUUID(),
    sourceAccountId: accounts.internalId as TransferSendInput['sourceAccountId'],
    destinationAccountId: accounts.externalId as TransferSendInput['destinationAccountId'],
    amount: nextAmount++
  }
}

/** Transfers on the service for this payment (its amount is unique to the trial). */
async function landed(amount: number): Promise<number> {
  const api = sandboxApi(env.server)
  let count = 0
  let cursor: string | undefined
  do {
    const page = await api<{
      data: Array<{ receivedAmount?: { amount: number } }>
      hasMore: boolean
      nextCursor?: string
    }>('GET', `transactions?type=OUTGOING&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    count += page.data.filter((t) => t.receivedAmount?.amount === amount).length
    cursor = page.hasMore ? page.nextCursor : undefined
  } while (cursor)
  return count
}

const send = (input: TransferSendInput) =>
  env.h.raw('transfers.send', input) as Promise<{ ok: boolean; error?: { code: string } }>

/**
 * Retries like an operator pressing "Review and retry", as long as the outcome stays unknown. When the retry's look-up
 * at the service finds the payment, nothing is sent and the operator settles it with what the check shows.
 */
async function retryUntilKnown(input: TransferSendInput) {
  for (let i = 0; i < 5; i++) {
    const r = await send(input)
    if (r.ok) return
    if (r.error?.code !== 'CHECK_REQUIRED') continue
    const { matches } = await env.h.call('transfers.check', { actionId: input.actionId })
    expect(matches).toHaveLength(1)
    await env.h.call('transfers.resolve', {
      actionId: input.actionId,
      transactionId: matches[0]!.id as `Transaction:${string}`
    })
    return
  }
  throw new Error('the transfer never completed')
}

/** A fault on the first attempts of a transfer-out, then retries until its outcome is known. */
const throughFault = (fault: Omit<FaultRuleInput, 'route'>) => async () => {
  const input = payment()
  env.server.faults.add({ route: 'POST /transfer-out', ...fault })
  await retryUntilKnown(input)
  return input.amount
}

/** The first send of a new payment fails under `kind`; `lift` removes the fault. */
async function firstSendFails(kind: 'commitThenDrop' | 'reset') {
  const input = payment()
  const fault = env.server.faults.add({ route: 'POST /transfer-out', kind })
  expect((await send(input)).ok).toBe(false)
  return { input, lift: () => env.server.faults.remove(fault.id) }
}

/** The first send fails under `kind`, then the service forgets its idempotency keys (24 h pass) before the retries. */
const afterKeyForgotten = (kind: 'commitThenDrop' | 'reset') => async () => {
  const { input, lift } = await firstSendFails(kind)
  lift()
  offset += 25 * HOUR
  await retryUntilKnown(input)
  return input.amount
}

const scenarios: Record<string, () => Promise<number>> = {
  'commit, then the answer is dropped': throughFault({ kind: 'commitThenDrop', times: 1 }),
  'connection reset before the service reads it': throughFault({ kind: 'reset', times: 2 }),
  '5xx from the service': throughFault({ kind: 'error', status: 503, code: 'UNAVAILABLE', times: 2 }),
  '429 rate limited': throughFault({ kind: 'rateLimit', retryAfterSeconds: 0, times: 2 }),
  'Paydesk killed while the outcome is unknown': async () => {
    const { input, lift } = await firstSendFails('commitThenDrop')
    await env.h.close()
    lift()
    env.h = await startBackend(env.dir, env.service, { autoSync: false, clock })
    await retryUntilKnown(input)
    return input.amount
  },
  'the service forgot the key, it had landed: the retry looks, then settle': afterKeyForgotten('commitThenDrop'),
  'the service forgot the key, nothing landed: the retry looks and sends': afterKeyForgotten('reset'),
  'nothing landed: check, send again': async () => {
    const { input, lift } = await firstSendFails('reset')
    lift()
    const { matches } = await env.h.call('transfers.check', { actionId: input.actionId })
    expect(matches).toEqual([])
    await env.h.call('transfers.sendAgain', {
      actionId: input.actionId,
      newActionId: randomUUID(),
      confirmNotSent: true
    })
    return input.amount
  },
  're-review: the same payment as a new action': async () => {
    const { input, lift } = await firstSendFails('commitThenDrop')
    lift()
    expect(await send({ ...input, actionId: randomUUID() })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
    await retryUntilKnown(input)
    return input.amount
  }
}

describe('fault run: money moves exactly once in every trial', () => {
  it.each(Object.keys(scenarios))(
    '%s',
    async (name) => {
      counts[name] = []
      for (let trial = 0; trial < TRIALS; trial++) {
        env.server.faults.clear()
        const amount = await scenarios[name]!()
        counts[name].push(await landed(amount))
      }
      expect(counts[name]).toEqual(Array(TRIALS).fill(1))
    },
    120_000
  )
})
