import { randomUUID } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { realClock } from '../../../src/main/domain/sync/poll-scheduler'
import { requireRealKeyring } from '../../support/keyring'
import { addProfile, backendAgainstSandbox, balanceOf, moneySetup, outgoing, startBackend } from '../sandbox-env'

requireRealKeyring()

let offset = 0
const now = () => Date.now() + offset

type Failure = { ok: false; error: { code: string; message: string; serviceCode?: string; actionId?: string } }

// Before the backend's hooks: each test's sandbox and backend start with the clocks agreeing.
beforeEach(() => {
  offset = 0
})
const env = backendAgainstSandbox('quotes', { sandbox: { now }, backend: { clock: { ...realClock, now } } })

async function quoteFor(amount: number, environment?: 'production') {
  await addProfile(env.h, env.server, environment ? { environment } : {})
  const { internalId, externalId } = await moneySetup(env.server)
  const request = requestFor(internalId, externalId, amount)
  const { quote } = await env.h.call('quotes.create', request)
  return { quote, internalId, externalId, request }
}

const requestFor = (internalId: string, externalId: string, amount: number) => ({
  source: { sourceType: 'ACCOUNT' as const, accountId: internalId as `InternalAccount:${string}` },
  destination: { destinationType: 'ACCOUNT' as const, accountId: externalId as `ExternalAccount:${string}` },
  lockedCurrencySide: 'SENDING' as const,
  lockedCurrencyAmount: amount
})

/** Executes `quoteId` while every answer of the execute call is lost: it goes through, its outcome is Unknown. */
async function executeLost(quoteId: `Quote:${string}`) {
  const actionId = randomUUID()
  const drop = env.server.faults.add({ route: 'POST /quotes/{quoteId}/execute', kind: 'commitThenDrop' })
  expect(((await env.h.raw('quotes.execute', { actionId, quoteId })) as Failure).ok).toBe(false)
  env.server.faults.remove(drop.id)
  expect((await env.h.call('transfers.journal', null)).records[0]).toMatchObject({ actionId, state: 'unknown' })
  return actionId
}

/** Outgoing transactions that left the account (a quote's PENDING transaction exists before it is executed). */
async function executed(): Promise<number> {
  return (await outgoing(env.server)).filter((t) => t.status !== 'PENDING' && t.status !== 'EXPIRED').length
}

/** A new action for a quote that already has one is refused, naming the first action ("Review and retry"). */
async function expectNewActionSentBackTo(actionId: string, quoteId: string) {
  expect(await env.h.raw('quotes.execute', { actionId: randomUUID(), quoteId })).toMatchObject({
    ok: false,
    error: { code: 'CONFLICT', actionId }
  })
}

describe('quotes', () => {
  it('creates a quote with rate, fees and both totals, and executes it once: the journal keeps it as a payment', async () => {
    const { quote, internalId } = await quoteFor(5_000)
    expect(quote).toMatchObject({ status: 'PENDING', totalSendingAmount: 5_000, feesIncluded: 10, exchangeRate: 1 })
    expect(quote.totalReceivingAmount).toBe(4_990)
    expect(Date.parse(quote.expiresAt!)).toBeGreaterThan(Date.now())
    expect((await env.h.call('quotes.open', null)).quotes.map((q) => q.id)).toEqual([quote.id])
    const before = await balanceOf(env.server, internalId)

    const actionId = randomUUID()
    const done = await env.h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(done.record).toMatchObject({ kind: 'quote-execute', quoteId: quote.id, state: 'sent', amount: 5_000 })
    expect(done.transaction?.id).toBe(quote.transactionId)
    expect(done.transaction?.status).toMatch(/PROCESSING|COMPLETED/)
    expect(JSON.stringify(done)).not.toMatch(/idempotencyKey|paydesk-/)
    expect(await balanceOf(env.server, internalId)).toBe(before - 5_000)
    // The same action again answers the same payment; it does not execute anything else.
    const again = await env.h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(again.transaction?.id).toBe(quote.transactionId)
    expect(await balanceOf(env.server, internalId)).toBe(before - 5_000)
    expect((await env.h.call('quotes.open', null)).quotes).toEqual([])
    // A new action for the executed quote is refused before reaching the service.
    await expectNewActionSentBackTo(actionId, quote.id)
    expect(await executed()).toBe(1)
  })

  it('executed while every answer is lost: Unknown, then Review and retry completes it exactly once', async () => {
    const { quote, internalId } = await quoteFor(7_777)
    const before = await balanceOf(env.server, internalId)
    const actionId = randomUUID()
    const drop = env.server.faults.add({ route: '*', kind: 'commitThenDrop' })
    const lost = (await env.h.raw('quotes.execute', { actionId, quoteId: quote.id })) as Failure
    expect(lost.ok).toBe(false)
    expect(lost.error.message).toMatch(/not known yet/)
    expect((await env.h.call('transfers.journal', null)).records[0]).toMatchObject({
      actionId,
      kind: 'quote-execute',
      state: 'unknown'
    })
    // It did reach the service: the money left once.
    env.server.faults.remove(drop.id)
    expect(await balanceOf(env.server, internalId)).toBe(before - 7_777)
    // A second action for the same quote would not carry the key: it is sent back to "Review and retry".
    await expectNewActionSentBackTo(actionId, quote.id)
    const retried = await env.h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(retried.record.state).toBe('sent')
    expect(retried.transaction?.id).toBe(quote.transactionId)
    expect(await balanceOf(env.server, internalId)).toBe(before - 7_777)
    expect(await executed()).toBe(1)
  })

  it('after a restart the same action still settles once, even when the service answers 409 to its key', async () => {
    const { quote, internalId } = await quoteFor(3_333)
    const before = await balanceOf(env.server, internalId)
    const actionId = await executeLost(quote.id as `Quote:${string}`)
    await env.h.close()
    // The service forgot the key (its 24 h window passed): the retry gets 409 and the quote says it was executed.
    offset += 25 * 60 * 60_000
    env.h = await startBackend(env.dir, env.service, { autoSync: false, clock: { ...realClock, now } })
    const retried = await env.h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(retried.record).toMatchObject({ state: 'sent', transactionId: quote.transactionId })
    expect(await balanceOf(env.server, internalId)).toBe(before - 3_333)
  })

  it('a request whose execution is Unknown is paid once: no new quote for it, and one made before is not executed', async () => {
    const { quote, request } = await quoteFor(6_000)
    const { quote: twin } = await env.h.call('quotes.create', request)
    const actionId = await executeLost(quote.id as `Quote:${string}`)
    const again = (await env.h.raw('quotes.create', request)) as Failure
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFLICT', actionId } })
    expect(again.error.message).toMatch(/Review and retry/)
    expect(await env.h.raw('quotes.execute', { actionId: randomUUID(), quoteId: twin.id })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', actionId }
    })
    expect(await executed()).toBe(1)
    // A request that differs is another payment.
    await env.h.call('quotes.create', { ...request, lockedCurrencyAmount: 6_001 })
  })

  it('25 hours later the request is still held until the retry reads the quote and settles it', async () => {
    const { quote, request } = await quoteFor(4_500)
    const actionId = await executeLost(quote.id as `Quote:${string}`)
    offset = 25 * 60 * 60_000
    expect(await env.h.raw('quotes.create', request)).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', actionId }
    })
    // Review and retry: the quote says it was executed, so nothing is sent and the record takes its transaction.
    const retried = await env.h.call('quotes.execute', { actionId, quoteId: quote.id })
    expect(retried.record).toMatchObject({ state: 'sent', transactionId: quote.transactionId, checkFound: 1 })
    expect(await executed()).toBe(1)
    // Settled: the same payment may now be made again on purpose.
    expect((await env.h.call('quotes.create', request)).quote.status).toBe('PENDING')
  })

  it('an execution whose connection dropped before it reached the service is settled as not executed once the quote expired', async () => {
    const { quote, request } = await quoteFor(2_500)
    const actionId = randomUUID()
    const reset = env.server.faults.add({ route: 'POST /quotes/{quoteId}/execute', kind: 'reset' })
    expect(((await env.h.raw('quotes.execute', { actionId, quoteId: quote.id })) as Failure).ok).toBe(false)
    env.server.faults.remove(reset.id)
    offset = Date.parse(quote.expiresAt!) - Date.now() + 1_000
    const r = (await env.h.raw('quotes.execute', { actionId, quoteId: quote.id })) as Failure
    expect(r.error).toMatchObject({ code: 'CONFLICT', serviceCode: 'QUOTE_EXPIRED' })
    expect(r.error.message).toMatch(/no money moved/)
    expect((await env.h.call('transfers.journal', null)).records[0]).toMatchObject({ actionId, state: 'refused' })
    expect(await executed()).toBe(0)
    expect((await env.h.call('quotes.create', request)).quote.status).toBe('PENDING')
  })

  it('an expired quote cannot be executed: nothing is sent and the operator is told to get a new one', async () => {
    const { quote, internalId } = await quoteFor(2_000)
    const before = await balanceOf(env.server, internalId)
    offset = Date.parse(quote.expiresAt!) - Date.now() + 1_000
    const r = (await env.h.raw('quotes.execute', { actionId: randomUUID(), quoteId: quote.id })) as Failure
    expect(r.error).toMatchObject({ code: 'CONFLICT', serviceCode: 'QUOTE_EXPIRED' })
    expect(r.error.message).toMatch(/new quote/)
    expect((await env.h.call('transfers.journal', null)).records).toEqual([])
    expect(await balanceOf(env.server, internalId)).toBe(before)
    expect((await env.h.call('quotes.open', null)).quotes).toEqual([])
  })

  it('production asks twice: without the confirmation nothing is executed; sandbox send is refused', async () => {
    const { quote } = await quoteFor(1_500, 'production')
    const r = (await env.h.raw('quotes.execute', { actionId: randomUUID(), quoteId: quote.id })) as Failure
    expect(r.error.code).toBe('CONFIRMATION_REQUIRED')
    expect(await executed()).toBe(0)
    expect(await env.h.raw('sandbox.send', { quoteId: quote.id, currencyCode: 'USD' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' }
    })
    const ok = await env.h.call('quotes.execute', {
      actionId: randomUUID(),
      quoteId: quote.id,
      confirmProduction: true
    })
    expect(ok.record.state).toBe('sent')
    expect(await executed()).toBe(1)
  })

  it('sandbox send against an open quote executes it and takes it off the open list', async () => {
    const { quote, internalId } = await quoteFor(4_000)
    const before = await balanceOf(env.server, internalId)
    const t = await env.h.call('sandbox.send', { quoteId: quote.id, currencyCode: 'USD' })
    expect(t.id).toBe(quote.transactionId)
    expect(t.status).toMatch(/PROCESSING|COMPLETED/)
    expect(await balanceOf(env.server, internalId)).toBe(before - 4_000)
    expect((await env.h.call('quotes.open', null)).quotes).toEqual([])
  })

  it('refuses bad requests before anything runs', async () => {
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
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
      expect(await env.h.raw('quotes.create', bad)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    }
    expect(await outgoing(env.server)).toEqual([])
  })
})
