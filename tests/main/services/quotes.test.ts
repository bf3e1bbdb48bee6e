import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SandboxServer } from '../../../src/sandbox/server'
import { realClock } from '../../../src/main/services/sync/scheduler'
import { requireRealKeyring } from '../../support/keyring'
import { tempDir } from '../helpers'
import {
  addProfile,
  balanceOf,
  moneySetup,
  outgoing,
  startBackend,
  startSandbox,
  testKeychainService,
  type Harness
} from '../sandbox-env'

requireRealKeyring()

let server: SandboxServer
let h: Harness
let dir: string
let cleanup: () => Promise<void>
let offset = 0
const now = () => Date.now() + offset
const service = testKeychainService('quotes')

type Failure = { ok: false; error: { code: string; message: string; serviceCode?: string; actionId?: string } }

beforeEach(async () => {
  offset = 0
  ;({ dir, cleanup } = await tempDir('quotes'))
  server = await startSandbox({ now })
  h = await startBackend(dir, service, { autoSync: false, clock: { ...realClock, now } })
})
afterEach(async () => {
  await h.close()
  await server.close()
  await cleanup()
})

async function quoteFor(amount: number, environment?: 'production') {
  await addProfile(h, server, environment ? { environment } : {})
  const { internalId, externalId } = await moneySetup(server)
  const { quote } = await h.call('quotes.create', {
    source: { sourceType: 'ACCOUNT', accountId: internalId as `InternalAccount:${string}` },
    destination: { destinationType: 'ACCOUNT', accountId: externalId as `ExternalAccount:${string}` },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount
  })
  return { quote, internalId, externalId }
}

/** Outgoing transactions that left the account (a quote's PENDING transaction exists before it is executed). */
async function executed(): Promise<number> {
  return (await outgoing(server)).filter((t) => t.status !== 'PENDING' && t.status !== 'EXPIRED').length
}

describe('quotes', () => {
  it('creates a quote with rate, fees and both totals, and executes it once: the journal keeps it as a payment', async () => {
    const { quote, internalId } = await quoteFor(5_000)
    expect(quote).toMatchObject({ status: 'PENDING', totalSendingAmount: 5_000, feesIncluded: 10, exchangeRate: 1 })
    expect(quote.totalReceivingAmount).toBe(4_990)
    expect(Date.parse(quote.expiresAt!)).toBeGreaterThan(Date.now())
    expect((await h.call('quotes.open', null)).quotes.map((q) => q.id)).toEqual([quote.id])
    const before = await balanceOf(server, internalId)

    const actionId = randomUUID()
    const done = await h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(done.record).toMatchObject({ kind: 'quote-execute', quoteId: quote.id, state: 'sent', amount: 5_000 })
    expect(done.transaction?.id).toBe(quote.transactionId)
    expect(done.transaction?.status).toMatch(/PROCESSING|COMPLETED/)
    expect(JSON.stringify(done)).not.toMatch(/idempotencyKey|paydesk-/)
    expect(await balanceOf(server, internalId)).toBe(before - 5_000)
    // The same action again answers the same payment; it does not execute anything else.
    const again = await h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(again.transaction?.id).toBe(quote.transactionId)
    expect(await balanceOf(server, internalId)).toBe(before - 5_000)
    expect((await h.call('quotes.open', null)).quotes).toEqual([])
    // A new action for the executed quote is refused before reaching the service.
    expect(await h.raw('quotes.execute', { actionId: randomUUID(), quoteId: quote.id })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', actionId }
    })
    expect(await executed()).toBe(1)
  })

  it('executed while every answer is lost: Unknown, then Review and retry completes it exactly once', async () => {
    const { quote, internalId } = await quoteFor(7_777)
    const before = await balanceOf(server, internalId)
    const actionId = randomUUID()
    const drop = server.faults.add({ route: '*', kind: 'commitThenDrop' })
    const lost = (await h.raw('quotes.execute', { actionId, quoteId: quote.id })) as Failure
    expect(lost.ok).toBe(false)
    expect(lost.error.message).toMatch(/not known yet/)
    expect((await h.call('transfers.journal', null)).records[0]).toMatchObject({
      actionId,
      kind: 'quote-execute',
      state: 'unknown'
    })
    // It did reach the service: the money left once.
    server.faults.remove(drop.id)
    expect(await balanceOf(server, internalId)).toBe(before - 7_777)
    // A second action for the same quote would not carry the key: it is sent back to "Review and retry".
    expect(await h.raw('quotes.execute', { actionId: randomUUID(), quoteId: quote.id })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', actionId }
    })
    const retried = await h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(retried.record.state).toBe('sent')
    expect(retried.transaction?.id).toBe(quote.transactionId)
    expect(await balanceOf(server, internalId)).toBe(before - 7_777)
    expect(await executed()).toBe(1)
  })

  it('after a restart the same action still settles once, even when the service answers 409 to its key', async () => {
    const { quote, internalId } = await quoteFor(3_333)
    const before = await balanceOf(server, internalId)
    const actionId = randomUUID()
    const drop = server.faults.add({ route: 'POST /quotes/{quoteId}/execute', kind: 'commitThenDrop' })
    expect(((await h.raw('quotes.execute', { actionId, quoteId: quote.id })) as Failure).ok).toBe(false)
    server.faults.remove(drop.id)
    await h.close()
    // The service forgot the key (its 24 h window passed): the retry gets 409 and the quote says it was executed.
    offset += 25 * 60 * 60_000
    h = await startBackend(dir, service, { autoSync: false, clock: { ...realClock, now } })
    const retried = await h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(retried.record).toMatchObject({ state: 'sent', transactionId: quote.transactionId })
    expect(await balanceOf(server, internalId)).toBe(before - 3_333)
  })

  it('an expired quote cannot be executed: nothing is sent and the operator is told to get a new one', async () => {
    const { quote, internalId } = await quoteFor(2_000)
    const before = await balanceOf(server, internalId)
    offset = Date.parse(quote.expiresAt!) - Date.now() + 1_000
    const r = (await h.raw('quotes.execute', { actionId: randomUUID(), quoteId: quote.id })) as Failure
    expect(r.error).toMatchObject({ code: 'CONFLICT', serviceCode: 'QUOTE_EXPIRED' })
    expect(r.error.message).toMatch(/new quote/)
    expect((await h.call('transfers.journal', null)).records).toEqual([])
    expect(await balanceOf(server, internalId)).toBe(before)
    expect((await h.call('quotes.open', null)).quotes).toEqual([])
  })

  it('production asks twice: without the confirmation nothing is executed; sandbox send is refused', async () => {
    const { quote } = await quoteFor(1_500, 'production')
    const r = (await h.raw('quotes.execute', { actionId: randomUUID(), quoteId: quote.id })) as Failure
    expect(r.error.code).toBe('CONFIRMATION_REQUIRED')
    expect(await executed()).toBe(0)
    expect(await h.raw('sandbox.send', { quoteId: quote.id, currencyCode: 'USD' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' }
    })
    const ok = await h.call('quotes.execute', { actionId: randomUUID(), quoteId: quote.id, confirmProduction: true })
    expect(ok.record.state).toBe('sent')
    expect(await executed()).toBe(1)
  })

  it('sandbox send against an open quote executes it and takes it off the open list', async () => {
    const { quote, internalId } = await quoteFor(4_000)
    const before = await balanceOf(server, internalId)
    const t = await h.call('sandbox.send', { quoteId: quote.id, currencyCode: 'USD' })
    expect(t.id).toBe(quote.transactionId)
    expect(t.status).toMatch(/PROCESSING|COMPLETED/)
    expect(await balanceOf(server, internalId)).toBe(before - 4_000)
    expect((await h.call('quotes.open', null)).quotes).toEqual([])
  })

  it('refuses bad requests before anything runs', async () => {
    await addProfile(h, server)
    const { internalId, externalId } = await moneySetup(server)
    const base = {
      source: { sourceType: 'ACCOUNT', accountId: internalId },
      destination: { destinationType: 'ACCOUNT', accountId: externalId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100
    }
    for (const bad of [
      { ...base, lockedCurrencyAmount: 1.5 },
      { ...base, lockedCurrencySide: 'BOTH' },
      { ...base, destination: { destinationType: 'UMA_ADDRESS', umaAddress: 'not an address' } },
      { ...base, extra: true }
    ]) {
      expect(await h.raw('quotes.create', bad)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    }
    expect(await outgoing(server)).toEqual([])
  })
})
