import { QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Prompt } from '../../../../src/shared/gate'

// The prompt as first drawn (server-rendered against a bridge that never answers): what the operator reads before
// deciding. The clock is the test's: the countdown is computed from it, never raced.

const NOW = Date.parse('2026-11-27T10:00:01.000Z')

beforeAll(() => {
  vi.useFakeTimers({ now: NOW })
  const target = { addEventListener: () => {}, removeEventListener: () => {} }
  vi.stubGlobal('window', { ...target, paydesk: { invoke: () => new Promise(() => {}), on: () => () => {} } })
})
afterAll(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const prompt: Prompt = {
  transactionId: 'Transaction:0195aaaa-0000-7000-8000-000000000005',
  webhookId: 'wh-1',
  customerId: 'Customer:0195aaaa-0000-7000-8000-000000000001',
  sender: '$bob@sandbox.uma.money',
  amount: 123_456,
  currency: 'USD',
  decimals: 2,
  requestedFields: [
    { name: 'FULL_NAME', mandatory: true },
    { name: 'BIRTH_DATE', mandatory: true },
    { name: 'NATIONALITY', mandatory: false }
  ],
  availableFields: ['FULL_NAME'],
  reasons: ['No rule matched: asking an operator.'],
  receivedAt: '2026-11-27T10:00:00.000Z',
  fallbackAt: '2026-11-27T10:00:04.000Z',
  fallback: 'reject'
}

async function draw(production: boolean): Promise<string> {
  const { PromptCard } = await import('../../../../src/renderer/src/views/approvals/PromptCard')
  const { createQueryClient } = await import('../../../../src/renderer/src/data/query-client')
  return renderToStaticMarkup(
    <QueryClientProvider client={createQueryClient()}>
      <PromptCard prompt={prompt} production={production} focused={false} onDecided={() => {}} />
    </QueryClientProvider>
  )
}

it('shows the amount at the edge, the countdown to the fallback, and which requested fields go or are missing', async () => {
  const html = await draw(false)
  expect(html).toContain('$1,234.56')
  expect(html).toContain('Rejecting automatically in 3 s')
  expect(html).toContain('$bob@sandbox.uma.money')
  expect(html).toMatch(/Full name \(mandatory\):.*the gate will send it/)
  expect(html).toMatch(/Birth date \(YYYY-MM-DD\) \(mandatory\):.*missing: fill it in below/)
  // A box to fill the missing mandatory field in, and none for what the gate has.
  expect(html).toMatch(/<label for="fill-[^"]*-BIRTH-DATE">/)
  expect(html).not.toMatch(/<label for="fill-[^"]*-FULL-NAME">/)
  expect(html).toMatch(/<button type="submit" class="primary">Approve \$1,234\.56 USD<\/button>/)
})

it('asks twice on a production profile: the buttons wait for the confirmation', async () => {
  const html = await draw(true)
  expect(html).toContain('Production: this decides a real payment of $1,234.56 USD.')
  expect(html).toMatch(/<button type="submit" class="primary" disabled="">Approve/)
  expect(html).toMatch(/<button type="button" class="danger" disabled="">Reject/)
})
