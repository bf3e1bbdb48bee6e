import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../support/sandbox'
import { publishedValidator } from './published-openapi'

let sandbox: TestSandbox
const validate = publishedValidator()

beforeAll(async () => {
  // The demo data every default Local sandbox starts with.
  sandbox = await startTestSandbox({ seed: true, timeScale: 1 })
})
afterAll(async () => {
  await sandbox?.close()
})

async function list(path: string): Promise<Array<Record<string, unknown>>> {
  const r = await fetch(`${sandbox.baseUrl}${path}`, { headers: { authorization: sandbox.authorization } })
  expect(r.status, path).toBe(200)
  return ((await r.json()) as { data: Array<Record<string, unknown>> }).data
}

/** Each item's problems against a published schema, named by its id. */
function problems(schema: string, items: Array<Record<string, unknown>>): string[] {
  return items.flatMap((item) => validate(schema, item).map((p) => `${String(item['id'])}: ${p}`))
}

describe('the seed data, in the shapes the published API returns', () => {
  it('every seeded external account, the customers’ and the platform’s, is a published ExternalAccount', async () => {
    const customers = await list('/customers/external-accounts?limit=100')
    const platform = await list('/platform/external-accounts?limit=100')
    expect(customers.length + platform.length).toBeGreaterThan(8)
    expect(problems('ExternalAccount', [...customers, ...platform])).toEqual([])
  })

  it('customers, internal accounts and transactions read as the published schemas too', async () => {
    expect(problems('CustomerOneOf', await list('/customers?limit=100'))).toEqual([])
    expect(problems('InternalAccount', await list('/platform/internal-accounts'))).toEqual([])
    expect(problems('InternalAccount', await list('/customers/internal-accounts?limit=100'))).toEqual([])
    expect(problems('TransactionOneOf', await list('/transactions?limit=100'))).toEqual([])
  })
})
