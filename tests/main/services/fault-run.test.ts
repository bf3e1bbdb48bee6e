import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxServer } from '../../../src/sandbox/server'
import { realClock } from '../../../src/main/services/sync/scheduler'
import type { TransferSendInput } from '../../../src/shared/ipc/channels/data'
import { requireRealKeyring } from '../../support/keyring'
import { tempDir } from '../helpers'
import {
  addProfile,
  moneySetup,
  sandboxApi,
  startBackend,
  startSandbox,
  testKeychainService,
  type Harness
} from '../sandbox-env'

requireRealKeyring()

/*
 * The fault run of the hardening issue: trials of every way an answer can go missing, each followed by what the
 * operator can do in Paydesk, then a count of the transfers that landed on the service for that payment. Exactly one
 * every time. The counts are printed so a run can be reported.
 */
const TRIALS = 3
const HOUR = 60 * 60_000

let server: SandboxServer
let h: Harness
let dir: string
let cleanup: () => Promise<void>
let offset = 0
const now = () => Date.now() + offset
const clock = { ...realClock, now }
const service = testKeychainService('fault-run')
let accounts: { internalId: string; externalId: string }
let nextAmount = 10_000
const counts: Record<string, number[]> = {}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('fault-run'))
  server = await startSandbox({ now })
  h = await startBackend(dir, service, { autoSync: false, clock })
  await addProfile(h, server)
  accounts = await moneySetup(server, 100_000_000)
})
afterAll(async () => {
  await h.close()
  await server.close()
  await cleanup()
  const lines = Object.entries(counts).map(
    ([name, c]) => `  ${name.padEnd(48)} ${c.join(' ')}   ${c.every((n) => n === 1) ? 'exactly once' : 'FAILED'}`
  )
  console.log(`\nFault run: transfers landed per trial (${TRIALS} trials each)\n${lines.join('\n')}`)
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
  const api = sandboxApi(server)
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
  h.raw('transfers.send', input) as Promise<{ ok: boolean; error?: { code: string } }>

/** Retries like an operator pressing "Review and retry", as long as the outcome stays unknown. */
async function retryUntilKnown(input: TransferSendInput) {
  for (let i = 0; i < 5; i++) if ((await send(input)).ok) return
  throw new Error('the transfer never completed')
}

const scenarios: Record<string, () => Promise<number>> = {
  'commit, then the answer is dropped': async () => {
    const input = payment()
    server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop', times: 1 })
    await retryUntilKnown(input)
    return input.amount
  },
  'connection reset before the service reads it': async () => {
    const input = payment()
    server.faults.add({ route: 'POST /transfer-out', kind: 'reset', times: 2 })
    await retryUntilKnown(input)
    return input.amount
  },
  '5xx from the service': async () => {
    const input = payment()
    server.faults.add({ route: 'POST /transfer-out', kind: 'error', status: 503, code: 'UNAVAILABLE', times: 2 })
    await retryUntilKnown(input)
    return input.amount
  },
  '429 rate limited': async () => {
    const input = payment()
    server.faults.add({ route: 'POST /transfer-out', kind: 'rateLimit', retryAfterSeconds: 0, times: 2 })
    await retryUntilKnown(input)
    return input.amount
  },
  'Paydesk killed while the outcome is unknown': async () => {
    const input = payment()
    const drop = server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
    expect((await send(input)).ok).toBe(false)
    await h.close()
    server.faults.remove(drop.id)
    h = await startBackend(dir, service, { autoSync: false, clock })
    await retryUntilKnown(input)
    return input.amount
  },
  'expired key, it had landed: check, then settle': async () => {
    const input = payment()
    const drop = server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
    expect((await send(input)).ok).toBe(false)
    server.faults.remove(drop.id)
    offset += 25 * HOUR
    expect(await send(input)).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED' } })
    const { matches } = await h.call('transfers.check', { actionId: input.actionId })
    await h.call('transfers.resolve', {
      actionId: input.actionId,
      transactionId: matches[0]!.id as `Transaction:${string}`
    })
    return input.amount
  },
  'expired key, nothing landed: check, send again': async () => {
    const input = payment()
    const reset = server.faults.add({ route: 'POST /transfer-out', kind: 'reset' })
    expect((await send(input)).ok).toBe(false)
    server.faults.remove(reset.id)
    offset += 25 * HOUR
    expect(await send(input)).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED' } })
    const { matches } = await h.call('transfers.check', { actionId: input.actionId })
    expect(matches).toEqual([])
    await h.call('transfers.sendAgain', { actionId: input.actionId, newActionId: randomUUID(), confirmNotSent: true })
    return input.amount
  },
  're-review: the same payment as a new action': async () => {
    const input = payment()
    const drop = server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
    expect((await send(input)).ok).toBe(false)
    server.faults.remove(drop.id)
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
        server.faults.clear()
        const amount = await scenarios[name]!()
        counts[name].push(await landed(amount))
      }
      expect(counts[name]).toEqual(Array(TRIALS).fill(1))
    },
    120_000
  )
})
