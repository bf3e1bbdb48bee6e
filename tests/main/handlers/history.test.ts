import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { AppError } from '../../../src/main/infra/app-error'
import type { Handlers } from '../../../src/main/handlers/dispatch'
import { historyHandlers, withActionLog } from '../../../src/main/handlers/history'
import { ActionLog } from '../../../src/main/domain/action-log'
import type { ProfileSession } from '../../../src/main/domain/profile-session'
import { PRODUCTION_REJECT_NEEDS_REASON } from '../../../src/shared/action-log'
import { tempDir } from '../helpers'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('logged-actions')))
afterEach(() => cleanup())

const PAYMENT = {
  id: 'Transaction:1',
  type: 'INCOMING',
  status: 'PENDING',
  customerId: 'Customer:9',
  receivedAmount: { amount: 27550, currency: { code: 'USD', decimals: 2 } }
}
const NAMES: Record<string, string> = {
  'Customer:9': 'Priya Raman',
  'ExternalAccount:3': 'Priya Raman · US bank …3210'
}

async function setUp(production = false) {
  const actions = await ActionLog.open(path.join(dir, 'actions.sealed'), randomBytes(32))
  const session = {
    profileId: 'local',
    actions,
    cache: {
      get: (_c: string, id: string) => (id === PAYMENT.id ? PAYMENT : undefined),
      namesOf: (ids: string[]) => Object.fromEntries(ids.filter((id) => NAMES[id]).map((id) => [id, NAMES[id]]))
    }
  } as unknown as ProfileSession
  const seen: unknown[] = []
  let answer: () => Promise<unknown> = async () => ({ profileId: 'local', decision: {} })
  const handlers = {
    'gate.answer': async (input: unknown) => {
      seen.push({ input, logged: actions.entries().map((e) => e.outcome) })
      return answer()
    },
    'externalAccounts.update': async (input: unknown) => {
      seen.push({ input })
      return { id: 'ExternalAccount:3' }
    }
  } as unknown as Partial<Handlers>
  const h = withActionLog(handlers, { active: async () => session, production: () => production }) as unknown as Record<
    string,
    (input: unknown) => Promise<unknown>
  >
  const list = () => historyHandlers(async () => session)['history.actions'](null)
  return { h, seen, list, fail: (f: () => Promise<unknown>) => (answer = f) }
}

it('logs an approval in words with names before sending it, then its outcome; the reason stays in Paydesk', async () => {
  const { h, seen, list } = await setUp()
  await h['gate.answer']!({ transactionId: 'Transaction:1', answer: { action: 'approve' }, reason: 'Known sender' })
  // The handler got no reason, and the entry was on disk (outcome not yet known) when it ran.
  expect(seen).toEqual([
    { input: { transactionId: 'Transaction:1', answer: { action: 'approve' } }, logged: ['unknown'] }
  ])
  const { entries } = await list()
  expect(entries).toEqual([
    expect.objectContaining({
      kind: 'approve',
      what: 'Approved the incoming payment of $275.50 USD for Priya Raman',
      ids: ['Transaction:1', 'Customer:9'],
      reason: 'Known sender',
      outcome: 'done'
    })
  ])
})

it('logs a refusal with the service’s words and code, and an answer that may have been applied as unknown', async () => {
  const { h, list, fail } = await setUp()
  fail(async () => {
    throw new AppError('CONFLICT', 'Too late: this payment was already decided.', { serviceCode: 'ALREADY_DECIDED' })
  })
  await expect(
    h['gate.answer']!({ transactionId: 'Transaction:1', answer: { action: 'reject', reason: 'Fraud' } })
  ).rejects.toThrow('Too late')
  fail(async () => {
    throw new AppError('UNREACHABLE', 'The gate did not answer.', { maybeApplied: true })
  })
  await expect(h['gate.answer']!({ transactionId: 'Transaction:1', answer: { action: 'approve' } })).rejects.toThrow()
  const { entries } = await list()
  expect(entries.map((e) => [e.kind, e.outcome, e.code, e.reason])).toEqual(
    expect.arrayContaining([
      ['reject', 'refused', 'ALREADY_DECIDED', 'Fraud'],
      ['approve', 'unknown', 'UNREACHABLE', null]
    ])
  )
})

it('logs an edit of an external account by its name and the fields changed', async () => {
  const { h, seen, list } = await setUp()
  await h['externalAccounts.update']!({
    id: 'ExternalAccount:3',
    update: { platformAccountId: 'p-1' },
    reason: 'Ticket 42'
  })
  expect(seen).toEqual([{ input: { id: 'ExternalAccount:3', update: { platformAccountId: 'p-1' } } }])
  expect((await list()).entries[0]).toMatchObject({
    kind: 'account',
    what: 'Edited Priya Raman · US bank …3210: your own account id',
    reason: 'Ticket 42',
    outcome: 'done'
  })
})

it('on production: logs nothing the guard will refuse unconfirmed, and refuses a reject without a reason', async () => {
  const { h, seen, list } = await setUp(true)
  await h['gate.answer']!({ transactionId: 'Transaction:1', answer: { action: 'approve' } })
  expect((await list()).entries).toEqual([])
  seen.length = 0
  await expect(
    h['gate.answer']!({ transactionId: 'Transaction:1', answer: { action: 'reject' }, confirmProduction: true })
  ).rejects.toThrow(PRODUCTION_REJECT_NEEDS_REASON)
  expect(seen).toEqual([])
  expect((await list()).entries).toEqual([])
  await h['gate.answer']!({
    transactionId: 'Transaction:1',
    answer: { action: 'reject' },
    reason: 'Fraud',
    confirmProduction: true
  })
  expect((await list()).entries[0]).toMatchObject({ kind: 'reject', reason: 'Fraud', outcome: 'done' })
})
