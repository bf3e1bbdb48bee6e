import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ApiClient } from '../../../src/main/infra/api-client'
import { ApiError } from '../../../src/main/infra/api-errors'
import { recordFailedAttempt } from '../../../src/main/domain/payment-attempt'
import type { StoredTransferRecord, TransferJournal } from '../../../src/main/domain/transfer-journal'
import { closedPort, json, stubServer } from '../helpers'

const Item = z.object({ id: z.string(), amount: z.number().int() })
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

async function setup(
  handler: Parameters<typeof stubServer>[0],
  extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}
) {
  const stub = await stubServer(handler)
  const client = new ApiClient({
    baseUrl: stub.baseUrl,
    tokenId: 'tok',
    clientSecret: 'SECRET_xyz_987',
    baseDelayMs: 20,
    maxDelayMs: 100,
    ...extra
  })
  closers.push(stub.close, () => client.close())
  return { stub, client }
}

describe('ApiClient', () => {
  it('sends HTTP Basic auth and joins the base URL with the path and query', async () => {
    const { stub, client } = await setup((_req, res) => json(res, 200, { id: 'Transaction:1', amount: 5, extra: true }))
    const value = await client.get('/transactions/Transaction:1', Item, { limit: 5, cursor: undefined })
    expect(value).toEqual({ id: 'Transaction:1', amount: 5 })
    const req = stub.requests[0]!
    expect(req.url).toBe('/2025-10-13/transactions/Transaction:1?limit=5')
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('tok:SECRET_xyz_987').toString('base64')}`)
  })

  it('tells each attempt as it is sent and as it ends, in order (what the connection state follows)', async () => {
    let n = 0
    const told: string[] = []
    const { client } = await setup(
      (_req, res) =>
        n++ === 0
          ? json(res, 503, { code: 'SERVICE_UNAVAILABLE', message: 'busy' })
          : json(res, 200, { id: 'x', amount: 1 }),
      {
        onAttemptStart: (i) => told.push(`start ${i.method} ${i.path} #${i.attempt}`),
        onAttempt: (i) => told.push(`end #${i.attempt} ${i.status}`)
      }
    )
    await client.get('thing', Item)
    expect(told).toEqual(['start GET thing #0', 'end #0 503', 'start GET thing #1', 'end #1 200'])
  })

  it('honours Retry-After on 429 before retrying', async () => {
    let n = 0
    const { stub, client } = await setup((_req, res) => {
      if (n++ === 0)
        return json(res, 429, { status: 429, code: 'RATE_LIMITED', message: 'slow down' }, { 'retry-after': '1' })
      json(res, 200, { id: 'x', amount: 1 })
    })
    await client.get('thing', Item)
    expect(stub.requests).toHaveLength(2)
    const waited = stub.requests[1]!.at - stub.requests[0]!.at
    expect(waited).toBeGreaterThanOrEqual(950)
    expect(waited).toBeLessThan(2000)
  })

  it('gives up at once when Retry-After is longer than it is willing to wait', async () => {
    const { stub, client } = await setup((_req, res) =>
      json(res, 429, { code: 'RATE_LIMITED', message: 'later' }, { 'retry-after': '600' })
    )
    const error = await client.get('thing', Item).catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      code: 'RATE_LIMITED',
      serviceCode: 'RATE_LIMITED',
      httpStatus: 429,
      retryAfterMs: 600_000
    })
    expect(error.message).toMatch(/wait 600 s/)
    expect(stub.requests).toHaveLength(1)
  })

  it('backs off exponentially on 5xx for reads, then succeeds', async () => {
    let n = 0
    const { stub, client } = await setup(
      (_req, res) =>
        n++ < 3 ? json(res, 503, { code: 'INTERNAL_ERROR', message: 'boom' }) : json(res, 200, { id: 'x', amount: 1 }),
      { baseDelayMs: 40, maxDelayMs: 10_000, random: () => 1 }
    )
    await client.get('thing', Item)
    const at = stub.requests.map((r) => r.at)
    const gaps = at.slice(1).map((t, i) => t - at[i]!)
    expect(gaps[0]).toBeGreaterThanOrEqual(38) // 40
    expect(gaps[1]).toBeGreaterThanOrEqual(78) // 80
    expect(gaps[2]).toBeGreaterThanOrEqual(158) // 160
  })

  it('stops after maxRetries and reports a service error with the service code', async () => {
    const { stub, client } = await setup(
      (_req, res) => json(res, 500, { status: 500, code: 'INTERNAL_ERROR', message: 'kaput' }),
      { maxRetries: 2 }
    )
    const error = await client.get('thing', Item).catch((e) => e)
    expect(error).toMatchObject({ code: 'SERVICE_ERROR', serviceCode: 'INTERNAL_ERROR', httpStatus: 500 })
    expect(error.message).toContain('kaput')
    expect(stub.requests).toHaveLength(3)
  })

  it('never retries an unkeyed write after a 5xx (it may have been processed)', async () => {
    const { stub, client } = await setup((_req, res) => json(res, 500, { code: 'INTERNAL_ERROR', message: 'x' }))
    await expect(client.request('POST', 'customers', { body: { customerType: 'INDIVIDUAL' } })).rejects.toMatchObject({
      code: 'SERVICE_ERROR'
    })
    expect(stub.requests).toHaveLength(1)
  })

  it('retries a keyed write on 5xx and on a dropped connection, with the same Idempotency-Key', async () => {
    let n = 0
    const { stub, client } = await setup((req, res) => {
      n++
      if (n === 1) return json(res, 502, { code: 'BAD_GATEWAY', message: 'x' })
      if (n === 2) {
        req.socket.destroy()
        return
      }
      json(res, 200, { id: 'Transaction:9', amount: 100 })
    })
    const out = await client.request('POST', 'transfer-out', {
      body: { amount: 100 },
      idempotencyKey: 'key-1',
      retry: 'idempotent',
      schema: Item
    })
    expect(out.id).toBe('Transaction:9')
    expect(stub.requests.map((r) => r.headers['idempotency-key'])).toEqual(['key-1', 'key-1', 'key-1'])
  })

  it('maps statuses to typed errors with a sentence and the service code', async () => {
    const cases: Array<[number, string]> = [
      [400, 'INVALID_INPUT'],
      [401, 'UNAUTHORIZED'],
      [403, 'FORBIDDEN'],
      [404, 'NOT_FOUND'],
      [409, 'CONFLICT'],
      [422, 'INVALID_INPUT']
    ]
    for (const [status, code] of cases) {
      const { client } = await setup((_req, res) =>
        json(res, status, { status, code: `SVC_${status}`, message: `said ${status}` })
      )
      const error = await client.get('thing', Item).catch((e) => e)
      expect(error).toMatchObject({ code, serviceCode: `SVC_${status}`, httpStatus: status })
      expect(error.message).toContain(`said ${status}`)
    }
  })

  it('rejects a response that does not match the schema as UNEXPECTED_RESPONSE', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { id: 'x', amount: 1.5 }))
    await expect(client.get('thing', Item)).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' })
    const { client: html } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<html>captive portal</html>')
    })
    await expect(html.get('thing', Item)).rejects.toMatchObject({
      code: 'UNEXPECTED_RESPONSE',
      message: expect.stringContaining('text/html')
    })
  })

  it('redacts the secret if a service message echoes it', async () => {
    const { client } = await setup((req, res) =>
      json(res, 401, { code: 'UNAUTHORIZED', message: `bad ${req.headers.authorization} SECRET_xyz_987` })
    )
    const error = await client.get('thing', Item).catch((e) => e)
    expect(error.message).not.toContain('SECRET_xyz_987')
    expect(error.message).not.toContain(Buffer.from('tok:SECRET_xyz_987').toString('base64'))
  })

  it('reports an unreachable host without retrying forever, and a timeout as TIMEOUT', async () => {
    const port = await closedPort()
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${port}/v`,
      tokenId: 't',
      clientSecret: 's',
      maxRetries: 1,
      baseDelayMs: 5
    })
    closers.push(() => client.close())
    const error = await client.get('x', Item).catch((e) => e)
    expect(error).toMatchObject({ code: 'UNREACHABLE', kind: 'unreachable', maybeProcessed: false })
    const { client: slow } = await setup(() => new Promise(() => {}), { totalTimeoutMs: 200, maxRetries: 0 })
    await expect(slow.get('x', Item)).rejects.toMatchObject({ code: 'TIMEOUT', maybeProcessed: true })
  })

  it('says "may have been processed" when any attempt may have been, even if the last could not connect', async () => {
    const holder: { server?: Awaited<ReturnType<typeof stubServer>> } = {}
    const { stub, client } = await setup((req) => {
      req.socket.destroy()
      holder.server!.server.close()
      holder.server!.server.closeAllConnections()
    })
    holder.server = stub
    const error = await client
      .request('POST', 'transfer-out', { body: {}, idempotencyKey: 'k', retry: 'idempotent', maxRetries: 2 })
      .catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ kind: 'unreachable', maybeProcessed: true })
    expect(stub.requests).toHaveLength(1)
  })
})

const MB = 1024 * 1024

/**
 * Streams a JSON array of `total` bytes, lazily: a chunk is written only when the socket takes it, so what was sent is
 * what the client read (plus the sockets' buffers). Resolves `sent` once the connection is gone.
 */
function hugeAnswer(res: ServerResponse, total: number, headers: Record<string, string | number> = {}) {
  const chunk = Buffer.from(`${'{"id":"Transaction:1","amount":1},'.repeat(2_000)}`)
  let sent = 0
  const done = new Promise<number>((resolve) => res.on('close', () => resolve(sent)))
  res.writeHead(200, { 'content-type': 'application/json', ...headers })
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    if (!res.destroyed) res.end(']')
  }
  res.write('[')
  pump()
  return done
}

describe('ApiClient: answers larger than it reads', () => {
  it('stops reading a 400 MB answer past its limit, refuses it plainly, and main never holds it', async () => {
    let sent: Promise<number> | undefined
    const { client } = await setup((_req, res) => void (sent = hugeAnswer(res, 400 * MB)))
    const before = process.memoryUsage()
    const error = await client.get('transactions', z.array(Item)).catch((e: unknown) => e)
    const after = process.memoryUsage()
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: 'UNEXPECTED_RESPONSE', kind: 'unexpected', maybeProcessed: true })
    expect((error as Error).message).toMatch(
      /^The service's answer was larger than 32 MB, so Paydesk stopped reading it/
    )
    // The connection was dropped at the limit: the rest of the answer was never sent, let alone held.
    expect(await sent!).toBeLessThan(64 * MB)
    expect(after.rss + after.arrayBuffers - before.rss - before.arrayBuffers).toBeLessThan(200 * MB)
  })

  it('refuses at once an answer whose Content-Length is past the limit, and does not ask again', async () => {
    let sent: Promise<number> | undefined
    const { stub, client } = await setup(
      (_req, res) => void (sent = hugeAnswer(res, 4 * MB, { 'content-length': 4 * MB + 1 })),
      {
        maxResponseBytes: MB
      }
    )
    const error = await client.get('transactions', z.array(Item)).catch((e: unknown) => e)
    expect((error as Error).message).toMatch(/larger than 1 MB/)
    expect(await sent!).toBeLessThan(4 * MB)
    expect(stub.requests).toHaveLength(1)
  })

  it('a payment whose answer is too large may have been applied: its outcome is unknown, never "refused"', async () => {
    const { stub, client } = await setup((_req, res) => void hugeAnswer(res, 2 * MB), { maxResponseBytes: MB })
    const error = await client
      .request('POST', 'transfer-out', { body: { amount: 1 }, idempotencyKey: 'k-1', retry: 'idempotent' })
      .catch((e: unknown) => e)
    expect(stub.requests).toHaveLength(1)
    const updates: Array<Partial<StoredTransferRecord>> = []
    const journal = { update: async (_id: string, patch: Partial<StoredTransferRecord>) => void updates.push(patch) }
    const record = { actionId: 'a-1', state: 'prepared' } as StoredTransferRecord
    const told = await recordFailedAttempt(journal as unknown as TransferJournal, record, error, { noun: 'transfer' })
    expect(updates).toEqual([expect.objectContaining({ state: 'unknown' })])
    expect((told as Error).message).toMatch(/larger than 1 MB.*The outcome of the transfer is not known yet/)
  })
})
