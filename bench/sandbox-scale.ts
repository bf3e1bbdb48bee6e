/**
 * Sandbox scale figures for `npm run bench -- sandbox`:
 * - the first start with the default seed data, in memory, as the seed tests start it: target < 1,500 ms;
 * - persistence at 100,000 generated transactions: the first full write, a restart (load from SQLite), and the save of
 *   one payment, which writes only what it touched (the old state file rewrote every record on every change);
 * - the event loop of a backend-like process while the embedded Local sandbox (its own process, as the backend starts
 *   it) takes 20 incoming payments, each approved by the answer to its approval webhook (a platform endpoint in this
 *   process, as the approval protocol has it): the longest block, target <= 50 ms.
 */
import { statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { localSandboxStateFile, startLocalSandbox } from '../src/main/infra/local-sandbox'
import { createSandboxServer } from '../src/sandbox/server'

const SIZE = 100_000
const PAYMENTS = 20
const TARGET_EVENT_LOOP_MS = 50
const TARGET_SEEDED_START_MS = 1_500

const BENCH_RECEIVER = { FULL_NAME: 'Bench Receiver', BIRTH_DATE: '1990-01-15', NATIONALITY: 'US' }

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`

export async function runSandboxScaleBench(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'paydesk-bench-sandbox-'))
  try {
    await seededStartFigure()
    await persistenceFigures(path.join(dir, 'standalone.db'))
    await eventLoopFigure(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function seededStartFigure(): Promise<void> {
  const t = performance.now()
  const server = await createSandboxServer({
    memory: true,
    tokenId: 'bench',
    clientSecret: 'bench',
    log: () => undefined
  })
  const startMs = performance.now() - t
  await server.close()
  const verdict = startMs < TARGET_SEEDED_START_MS ? 'met' : 'NOT MET'
  console.log(
    `Sandbox first start with the seed data (in memory): ${startMs.toFixed(0)} ms (target < ${TARGET_SEEDED_START_MS.toLocaleString('en-US')} ms: ${verdict})`
  )
}

async function persistenceFigures(dataFile: string): Promise<void> {
  const common = { dataFile, tokenId: 'bench', clientSecret: 'bench', generateTransactions: SIZE, log: () => undefined }
  let t = performance.now()
  const first = await createSandboxServer(common)
  const generateAndWriteMs = performance.now() - t
  await first.close()
  t = performance.now()
  const again = await createSandboxServer(common)
  const restartMs = performance.now() - t
  try {
    const { engine, store } = again.state
    const customer = store.customerIndex.items.find((c) => Object.keys(c.meta.internalAccounts).includes('USD'))
    if (!customer) throw new Error('no seeded customer with a USD account')
    engine.sandboxReceive({
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      customerId: customer.id as `Customer:${string}`,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 1_234
    })
    t = performance.now()
    await again.state.save()
    const saveMs = performance.now() - t
    console.log(`Sandbox persistence (SQLite) at ${SIZE.toLocaleString('en-US')} generated transactions`)
    console.log(
      `  generate + first full write: ${generateAndWriteMs.toFixed(0)} ms; file ${mb(statSync(dataFile).size)}`
    )
    console.log(`  restart (load every record from SQLite): ${restartMs.toFixed(0)} ms`)
    console.log(`  save after one incoming payment (writes only what it touched): ${saveMs.toFixed(1)} ms`)
  } finally {
    await again.close()
  }
}

async function eventLoopFigure(dir: string): Promise<void> {
  const dataDir = path.join(dir, 'embedded')
  const auth = { authorization: `Basic ${Buffer.from('bench:bench-secret').toString('base64')}` }
  const json = { ...auth, 'content-type': 'application/json' }
  let t = performance.now()
  const sandbox = await startLocalSandbox({
    dataDir,
    tokenId: 'bench',
    clientSecret: 'bench-secret',
    log: () => undefined,
    generateTransactions: SIZE
  })
  const spawnMs = performance.now() - t
  // The platform's webhook endpoint: it approves every payment in its answer, with the receiver fields asked for.
  const platform = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ receiverCustomerInfo: BENCH_RECEIVER }))
    })
  })
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve))
  try {
    await sandbox.ready
    const readyMs = performance.now() - t
    const endpoint = `http://127.0.0.1:${(platform.address() as AddressInfo).port}/webhooks`
    const configured = await fetch(`${sandbox.baseUrl}/config`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ webhookEndpoint: endpoint })
    })
    if (!configured.ok) throw new Error(`PATCH /config failed: ${configured.status}`)
    const receive = (customerId: string, amount: number) =>
      fetch(`${sandbox.baseUrl}/sandbox/uma/receive`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          senderUmaAddress: '$success.usd@sandbox.uma.money',
          customerId,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: amount
        })
      })
    /** Until the platform's answer to the payment's approval webhook is applied (approved: PROCESSING or later). */
    const approve = async (id: string) => {
      for (;;) {
        const got = (await (
          await fetch(`${sandbox.baseUrl}/transactions/${encodeURIComponent(id)}`, { headers: auth })
        ).json()) as { status?: string; failureReason?: string }
        if (got.status === 'PROCESSING' || got.status === 'COMPLETED') return
        if (got.status !== 'PENDING') throw new Error(`not approved: ${got.status} ${got.failureReason ?? ''}`)
        await new Promise((r) => setTimeout(r, 5))
      }
    }
    // A seeded customer who may receive USD (some are deliberately pending KYC or deleted).
    const listed = (await (await fetch(`${sandbox.baseUrl}/customers?limit=50`, { headers: auth })).json()) as {
      data: { id: string }[]
    }
    let customerId: string | undefined
    for (const c of listed.data) {
      const probe = await receive(c.id, 100)
      const body = (await probe.json()) as { id?: string }
      if (probe.ok && body.id) {
        customerId = c.id
        await approve(body.id)
        break
      }
    }
    if (!customerId) throw new Error('no seeded customer can receive USD')
    const histogram = monitorEventLoopDelay({ resolution: 5 })
    // The probe payments above warmed up receive; the first approve warms up the rest, outside the measurement.
    histogram.enable()
    t = performance.now()
    for (let i = 0; i < PAYMENTS; i++) {
      const res = await receive(customerId, 1_000 + i)
      const tx = (await res.json()) as { id?: string }
      if (!res.ok || !tx.id) throw new Error(`receive failed: ${res.status}`)
      await approve(tx.id)
    }
    const burstMs = performance.now() - t
    histogram.disable()
    const maxMs = histogram.max / 1e6
    console.log(`Local sandbox in its own process, ${SIZE.toLocaleString('en-US')} generated transactions`)
    console.log(
      `  spawn returned after ${spawnMs.toFixed(0)} ms; ready (generated and written) after ${readyMs.toFixed(0)} ms; state file ${mb(statSync(localSandboxStateFile(dataDir)).size)}`
    )
    console.log(
      `  ${PAYMENTS} payments received and approved in ${burstMs.toFixed(0)} ms; longest event-loop block of this (backend) process: ${maxMs.toFixed(1)} ms (target <= ${TARGET_EVENT_LOOP_MS} ms: ${maxMs <= TARGET_EVENT_LOOP_MS ? 'met' : 'NOT MET'})`
    )
  } finally {
    await sandbox.close()
    await new Promise((resolve) => platform.close(resolve))
  }
}
