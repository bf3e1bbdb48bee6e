/**
 * Receiver information: sealed at rest under the gate's key (unreadable in the file, bound to its customer), read from
 * the operators' table first, else from the platform's lookup over HTTP (a server written here), which gives nothing
 * when it fails or does not answer within its budget. Only the requested fields are ever picked.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pickRequested, ReceiverInfoSeal, ReceiverInfoSource } from '../../../src/gate/domain/receiver-info'
import { systemClock } from '../../../src/gate/domain/clock'
import { SqliteGateStore } from '../../../src/gate/store/sqlite-store'

let dir: string
let store: SqliteGateStore
const servers: { close(): void; closeAllConnections(): void }[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-info-'))
  store = new SqliteGateStore({ file: join(dir, 'gate.db'), now: Date.now })
})
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    s.close()
  }
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

async function lookupServer(
  handle: (req: IncomingMessage, body: string, res: ServerResponse) => void
): Promise<string> {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => handle(req, body, res))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/lookup`
}

const req = { customerId: 'Customer:1', platformCustomerId: 'p1', fields: ['BIRTH_DATE'] }

describe('ReceiverInfoSeal', () => {
  it('seals so that the database file does not hold the value, and opens only for its customer and key', async () => {
    const seal = new ReceiverInfoSeal(randomBytes(32))
    const source = new ReceiverInfoSource({ store, seal, clock: systemClock, log: () => undefined })
    await source.put('Customer:1', { BIRTH_DATE: '1990-01-02', FULL_NAME: 'Ana Secret' }, 'operator:Ana')
    await store.close()
    const file = readFileSync(join(dir, 'gate.db'))
    expect(file.includes(Buffer.from('Ana Secret'))).toBe(false)
    store = new SqliteGateStore({ file: join(dir, 'gate.db'), now: Date.now })
    const row = (await store.getReceiverInfo('Customer:1'))!
    expect(seal.open('Customer:1', row.sealed)).toEqual({ BIRTH_DATE: '1990-01-02', FULL_NAME: 'Ana Secret' })
    expect(() => seal.open('Customer:2', row.sealed)).toThrow()
    expect(() => new ReceiverInfoSeal(randomBytes(32)).open('Customer:1', row.sealed)).toThrow()
  })
})

describe('ReceiverInfoSource', () => {
  it('asks the platform’s lookup when the table has nothing, with the customer and the requested field names', async () => {
    let asked: unknown
    const url = await lookupServer((_r, body, res) => {
      asked = JSON.parse(body)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"BIRTH_DATE":"1980-05-05","EXTRA":"x"}')
    })
    const source = new ReceiverInfoSource({
      store,
      seal: new ReceiverInfoSeal(randomBytes(32)),
      lookupUrl: url,
      clock: systemClock,
      log: () => undefined
    })
    const found = await source.find(req, 1000)
    expect(asked).toEqual(req)
    expect(found.from).toBe('lookup')
    expect(pickRequested([{ name: 'BIRTH_DATE', mandatory: true }], found.info)).toEqual({
      picked: { BIRTH_DATE: '1980-05-05' },
      missing: []
    })
  })

  it('a lookup that fails or does not answer in its budget gives nothing', async () => {
    const logs: string[] = []
    const failing = await lookupServer((_r, _b, res) => res.writeHead(500).end())
    const hanging = await lookupServer(() => undefined)
    // The failing lookup answers at once, under any budget; the hanging one never does, so its budget always runs out.
    for (const [lookupUrl, budget] of [
      [failing, 30_000],
      [hanging, 50]
    ] as const) {
      const source = new ReceiverInfoSource({
        store,
        seal: new ReceiverInfoSeal(randomBytes(32)),
        lookupUrl,
        clock: systemClock,
        log: (m) => logs.push(m)
      })
      expect(await source.find(req, budget)).toEqual({ info: {}, from: 'none' })
    }
    expect(logs).toEqual(['the receiver lookup answered 500', 'the receiver lookup failed: TimeoutError'])
  })

  it('picks exactly the requested fields and names the mandatory ones missing', () => {
    const requested = [
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: true },
      { name: 'NATIONALITY', mandatory: false }
    ]
    expect(pickRequested(requested, { FULL_NAME: 'Ana', BIRTH_DATE: ' ', EMAIL: 'a@b.c' })).toEqual({
      picked: { FULL_NAME: 'Ana' },
      missing: ['BIRTH_DATE']
    })
  })
})
