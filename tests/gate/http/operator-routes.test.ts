/**
 * GET /operator/receiver-info/{customerId}: Paydesk's editor reads what it edits, unsealed, with an operator token
 * only; 404 when none is kept; the values never reach the gate's log lines or its decision log.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { ReceiverInfo } from '../../../src/shared/gate'
import { GateConfig } from '../../../src/gate/config'
import { hashToken, newToken } from '../../../src/gate/domain/operators'
import { ReceiverInfoSeal } from '../../../src/gate/domain/receiver-info'
import { startGateServer, type GateServer } from '../../../src/gate/http/server'
import { SqliteGateStore } from '../../../src/gate/store/sqlite-store'
import { newSigningKeyPair } from '../../../src/sandbox/state/webhook-signing'

let dir: string
let gate: GateServer
let store: SqliteGateStore
let token: string
const logs: string[] = []

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gate-receiver-info-'))
  store = new SqliteGateStore({ file: join(dir, 'gate.db'), now: Date.now })
  token = newToken()
  await store.addOperator('Ana', hashToken(token))
  const config = GateConfig.parse({
    port: 0,
    logLevel: 'debug',
    webhookPublicKey: newSigningKeyPair().publicKeyPem,
    serviceBaseUrl: 'http://127.0.0.1:9/unused',
    serviceTokenId: 'id',
    serviceClientSecret: 'secret',
    receiverInfoKey: randomBytes(32).toString('hex')
  })
  gate = await startGateServer({ config, store, logStream: { write: (line) => void logs.push(line) } })
})

afterEach(async () => {
  await gate.close()
  rmSync(dir, { recursive: true, force: true })
})

const call = async (method: string, path: string, body?: unknown, t: string | null = token) => {
  const r = await fetch(gate.url + path, {
    method,
    headers: {
      ...(t !== null && { authorization: `Bearer ${t}` }),
      ...(body !== undefined && { 'content-type': 'application/json' })
    },
    ...(body !== undefined && { body: JSON.stringify(body) })
  })
  const text = await r.text()
  return { status: r.status, body: text ? JSON.parse(text) : undefined, cache: r.headers.get('cache-control') }
}

it('answers the unsealed information to an operator, 404 when none is kept, and logs none of its values', async () => {
  const info = { FULL_NAME: 'Zelda Quokka-Marsh', BIRTH_DATE: '1984-03-09' }
  expect((await call('GET', '/operator/receiver-info/Customer:9')).status).toBe(404)
  expect((await call('PUT', '/operator/receiver-info/Customer:9', { info })).status).toBe(204)
  const got = await call('GET', '/operator/receiver-info/Customer:9')
  expect(got.status).toBe(200)
  expect(got.cache).toBe('no-store')
  expect(ReceiverInfo.parse(got.body)).toMatchObject({ customerId: 'Customer:9', info, updatedBy: 'operator:Ana' })
  expect((await call('GET', '/operator/receiver-info/Customer:10')).body.code).toBe('RECEIVER_INFO_NOT_FOUND')
  expect((await call('GET', '/operator/receiver-info/bad%20id')).status).toBe(400)
  const everything = logs.join('\n') + JSON.stringify(await store.readLog(0, 100))
  expect(everything).not.toContain('Quokka')
  expect(everything).not.toContain('1984-03-09')
})

it('refuses a missing or unknown token before reading anything', async () => {
  await call('PUT', '/operator/receiver-info/Customer:9', { info: { FULL_NAME: 'A B' } })
  for (const t of [null, 'not-a-token', newToken()]) {
    const r = await call('GET', '/operator/receiver-info/Customer:9', undefined, t)
    expect(r.status).toBe(401)
    expect(JSON.stringify(r.body)).not.toContain('A B')
  }
})

it('says when the row was sealed under another key instead of answering garbage', async () => {
  const other = new ReceiverInfoSeal(randomBytes(32))
  await store.putReceiverInfo('Customer:7', other.seal('Customer:7', { FULL_NAME: 'X' }), 'operator:Ana')
  const r = await call('GET', '/operator/receiver-info/Customer:7')
  expect(r.status).toBe(409)
  expect(r.body.code).toBe('RECEIVER_INFO_UNREADABLE')
})
