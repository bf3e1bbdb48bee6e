import { expect, it } from 'vitest'
import type { Prompt } from '../../../src/shared/gate'
import { applyGateEvent } from '../../../src/renderer/src/data/gate-cache'
import { channelKey, createQueryClient } from '../../../src/renderer/src/data/query-client'

const prompt = (transactionId: string): Prompt => ({
  transactionId,
  webhookId: `wh-${transactionId}`,
  customerId: 'Customer:1',
  sender: '$bob@example.com',
  amount: 1_000,
  currency: 'USD',
  decimals: 2,
  requestedFields: [],
  availableFields: [],
  reasons: [],
  receivedAt: '2026-11-27T10:00:00.000Z',
  fallbackAt: '2026-11-27T10:00:04.000Z',
  fallback: 'reject'
})

it('takes a decided payment off the prompts at once, and has the log and prompts read again', async () => {
  const client = createQueryClient()
  client.setQueryData(channelKey('gate.prompts', null), { profileId: 'local', prompts: [prompt('T:1'), prompt('T:2')] })
  client.setQueryData(channelKey('gate.log', { limit: 100 }), { profileId: 'local', events: [] })
  client.setQueryData(channelKey('gate.rules.get', null), { rules: [], otherwise: 'ask', otherwiseFallback: 'reject' })
  await applyGateEvent(
    {
      seq: 9,
      at: '2026-11-27T10:00:04.000Z',
      kind: 'decision',
      actor: 'fallback:otherwise',
      data: { transactionId: 'T:1' }
    },
    client
  )
  const prompts = client.getQueryData<{ prompts: Prompt[] }>(channelKey('gate.prompts', null))
  expect(prompts?.prompts.map((p) => p.transactionId)).toEqual(['T:2'])
  expect(client.getQueryState(channelKey('gate.log', { limit: 100 }))?.isInvalidated).toBe(true)
  expect(client.getQueryState(channelKey('gate.prompts', null))?.isInvalidated).toBe(true)
  // A decision changes no rule.
  expect(client.getQueryState(channelKey('gate.rules.get', null))?.isInvalidated).toBe(false)
})

it('has everything the gate holds read again for an entry of a kind it does not know', async () => {
  const client = createQueryClient()
  client.setQueryData(channelKey('gate.rules.get', null), { rules: [], otherwise: 'ask', otherwiseFallback: 'reject' })
  await applyGateEvent({ seq: 10, at: '2026-11-27T10:00:05.000Z', kind: 'novel', actor: 'gate', data: {} }, client)
  expect(client.getQueryState(channelKey('gate.rules.get', null))?.isInvalidated).toBe(true)
})
