import { randomBytes, randomUUID } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { QuoteCreateRequest } from '../../../src/shared/api'
import { ApiClient, type RequestOptions } from '../../../src/main/infra/api-client'
import type { z } from 'zod'
import type { PaymentDeps } from '../../../src/main/domain/payment-attempt'
import { QuoteService } from '../../../src/main/domain/quotes'
import { TransferJournal } from '../../../src/main/domain/transfer-journal'
import { TransferService } from '../../../src/main/domain/transfers'
import { startTestSandbox, type TestSandbox } from '../../support/sandbox'
import { tempDir } from '../helpers'
import { moneySetup, outgoing } from '../sandbox-env'

/*
 * One guard for money: two attempts at the same payment under different action ids (two windows, a double submit)
 * make one payment, wherever the second starts while the first is held. Each interleaving is driven by a latch on the
 * first attempt, never by timing: the second runs while the first waits at that point, as far as it gets (refused,
 * or its own request on the way, where it is held in turn), and only then does the first go on.
 */

function latch() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  let reach!: () => void
  const reached = new Promise<void>((resolve) => (reach = resolve))
  return { open, opened, reach, reached }
}

/** Where the first attempt is held while the second runs. */
type Point = 'before its journal write' | 'after its journal write' | 'its request on the way' | 'its answer on the way'

let sandbox: TestSandbox
let cleanup: () => Promise<void>
let journal: TransferJournal
let client: HeldClient
let deps: PaymentDeps
let accounts: { internalId: string; externalId: string }

/** The real client, which holds the POSTs to a path, in turn, before they leave or after their answer came back. */
class HeldClient extends ApiClient {
  holds: Array<{ path: string; where: 'before' | 'after'; latch: ReturnType<typeof latch> }> = []
  override async request<S extends z.ZodType | undefined>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    requestPath: string,
    options: RequestOptions<S> = {}
  ): Promise<S extends z.ZodType ? z.output<S> : unknown> {
    const index = method === 'POST' ? this.holds.findIndex((h) => h.path === requestPath) : -1
    const hold = index >= 0 ? this.holds.splice(index, 1)[0] : undefined
    if (hold?.where === 'before') {
      hold.latch.reach()
      await hold.latch.opened
    }
    const answer = await super.request(method, requestPath, options)
    if (hold?.where === 'after') {
      hold.latch.reach()
      await hold.latch.opened
    }
    return answer
  }
}

beforeEach(async () => {
  sandbox = await startTestSandbox()
  accounts = await moneySetup(sandbox.server)
  let dir: string
  ;({ dir, cleanup } = await tempDir('intents'))
  journal = await TransferJournal.open(path.join(dir, 'transfers.sealed'), randomBytes(32), 'p-1')
  client = new HeldClient({
    baseUrl: sandbox.baseUrl,
    tokenId: sandbox.tokenId,
    clientSecret: sandbox.clientSecret,
    baseDelayMs: 10,
    maxDelayMs: 50
  })
  deps = {
    profile: { id: 'p-1', name: 'Test', environment: 'sandbox', baseUrl: sandbox.baseUrl, tokenId: sandbox.tokenId },
    journal,
    client: () => client,
    cachedTransaction: () => undefined,
    onTransaction: async () => {},
    now: () => Date.now(),
    log: () => {}
  }
})

afterEach(async () => {
  await client.close()
  await sandbox.close()
  await cleanup()
})

/** Holds the first call of the journal's `method` for `actionId` (its write waits behind the latch). */
function holdJournal(method: 'prepare' | 'update', actionId: string) {
  const l = latch()
  const real = journal[method].bind(journal) as (...args: unknown[]) => Promise<unknown>
  let held = false
  const first = (args: unknown[]) =>
    method === 'prepare' ? (args[0] as { actionId: string }).actionId === actionId : args[0] === actionId
  ;(journal as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    if (!held && first(args)) {
      held = true
      l.reach()
      await l.opened
    }
    return real(...args)
  }
  return l
}

function holdAt(point: Point, actionId: string, postPath: string) {
  if (point === 'before its journal write') return holdJournal('prepare', actionId)
  if (point === 'after its journal write') return holdJournal('update', actionId)
  const l = latch()
  client.holds.push({ path: postPath, where: point === 'its request on the way' ? 'before' : 'after', latch: l })
  return l
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'sent',
    (e: { code?: string }) => e.code ?? String(e)
  )

describe('two sends of the same payment under different action ids', () => {
  const points: Point[] = [
    'before its journal write',
    'after its journal write',
    'its request on the way',
    'its answer on the way'
  ]
  for (const point of points) {
    it(`make one transfer when the second starts with the first held ${point}`, async () => {
      const transfers = new TransferService(deps)
      const payment = { sourceAccountId: accounts.internalId, destinationAccountId: accounts.externalId, amount: 1_500 }
      const first = { ...payment, actionId: randomUUID() } as Parameters<TransferService['send']>[0]
      const second = { ...payment, actionId: randomUUID() } as Parameters<TransferService['send']>[0]
      const firstHeld = holdAt(point, first.actionId, 'transfer-out')
      // The second's own request, should it get that far, waits until the first has gone on.
      const secondHeld = latch()
      client.holds.push({ path: 'transfer-out', where: 'before', latch: secondHeld })
      const firstRun = outcome(transfers.send(first))
      await firstHeld.reached
      const secondRun = outcome(transfers.send(second))
      const secondEnded = await Promise.race([secondRun.then(() => true), secondHeld.reached.then(() => false)])
      // Refused before its request: its hold is not the first's to wait on.
      if (secondEnded) client.holds = client.holds.filter((h) => h.latch !== secondHeld)
      firstHeld.open()
      const firstOutcome = await firstRun
      secondHeld.open()
      expect([firstOutcome, await secondRun].sort()).toEqual(['CONFLICT', 'sent'])
      expect(await outgoing(sandbox.server)).toHaveLength(1)
    })
  }

  it('make one transfer when both start together', async () => {
    const transfers = new TransferService(deps)
    const payment = { sourceAccountId: accounts.internalId, destinationAccountId: accounts.externalId, amount: 900 }
    const sends = [randomUUID(), randomUUID()].map((actionId) =>
      outcome(transfers.send({ ...payment, actionId } as Parameters<TransferService['send']>[0]))
    )
    expect((await Promise.all(sends)).sort()).toEqual(['CONFLICT', 'sent'])
    expect(await outgoing(sandbox.server)).toHaveLength(1)
  })
})

describe('a quote request whose execution is on its way', () => {
  it('gets no second quote, and a quote already made for it is not executed', async () => {
    const quotes = new QuoteService(deps)
    const request = {
      source: { sourceType: 'ACCOUNT', accountId: accounts.internalId },
      destination: { destinationType: 'ACCOUNT', accountId: accounts.externalId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 2_500
    } as QuoteCreateRequest
    const { quote: a } = await quotes.create(request)
    const { quote: b } = await quotes.create(request)
    const held = holdAt('its request on the way', '', `quotes/${encodeURIComponent(a.id)}/execute`)
    const first = outcome(quotes.execute({ actionId: randomUUID(), quoteId: a.id as `Quote:${string}` }))
    await held.reached
    await expect(quotes.create(request)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await outcome(quotes.execute({ actionId: randomUUID(), quoteId: b.id as `Quote:${string}` }))).toBe(
      'CONFLICT'
    )
    held.open()
    expect(await first).toBe('sent')
    const executed = (await outgoing(sandbox.server)).filter((t) => t.status !== 'PENDING' && t.status !== 'EXPIRED')
    expect(executed).toHaveLength(1)
  })
})
