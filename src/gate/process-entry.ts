/**
 * Entry of the Local profile's approval gate, in a process of its own (src/main/services/local-gate.ts starts it: a
 * Node fork, or Electron's utilityProcess, which hands it `process.parentPort`). One `start` message carries the
 * configuration and its secrets (never argv, the environment or a log); the gate registers Paydesk's operator token
 * (only its hash is kept), writes the demo receiver information it has none for, listens on 127.0.0.1 and answers
 * `ready` with its address. It stops gracefully when told to `close` or when its parent goes away.
 */
import { GateParentMessage, type GateChildMessage, type GateStartMessage } from '../shared/gate-process'
import { GateConfig } from './config'
import { hashToken } from './domain/operators'
import { ReceiverInfoSeal } from './domain/receiver-info'
import { startGateServer, type GateServer } from './http/server'
import { SqliteGateStore } from './store/sqlite-store'
import { parentChannel } from '../shared/parent-channel'

const port = parentChannel<GateChildMessage>(process, 'The gate process entry')
let server: GateServer | undefined
let starting = false
let stopping = false

async function stop(code: number): Promise<void> {
  if (stopping) return
  stopping = true
  await server?.close().catch(() => undefined)
  process.exit(code)
}

async function start(m: GateStartMessage): Promise<GateServer> {
  const config = GateConfig.parse({
    host: '127.0.0.1',
    port: m.port,
    database: m.database,
    webhookPublicKey: m.webhookPublicKey,
    serviceBaseUrl: m.serviceBaseUrl,
    serviceTokenId: m.serviceTokenId,
    serviceClientSecret: m.serviceClientSecret,
    receiverInfoKey: m.receiverInfoKey,
    // Set only for a Local sandbox whose approval window a test stretched.
    ...(m.serviceDeadlineMs !== undefined && { serviceDeadlineMs: m.serviceDeadlineMs }),
    ...(m.marginMs !== undefined && { marginMs: m.marginMs }),
    // Problems only: a line per request would flood Paydesk's log, and decisions are in the gate's own log.
    logLevel: 'warn'
  })
  const store = new SqliteGateStore({
    file: config.database,
    now: Date.now,
    ...(m.nativeBinding !== undefined && { nativeBinding: m.nativeBinding })
  })
  try {
    const hash = hashToken(m.operator.token)
    if (!(await store.operators()).some((op) => op.tokenHash.equals(hash)))
      await store.addOperator(m.operator.name, hash)
    const seal = new ReceiverInfoSeal(Buffer.from(m.receiverInfoKey, 'base64'))
    for (const { customerId, info } of m.receiverInfo) {
      if (!(await store.getReceiverInfo(customerId)))
        await store.putReceiverInfo(customerId, seal.seal(customerId, info), 'paydesk-demo')
    }
    return await startGateServer({
      config,
      store,
      logStream: { write: (line) => port.send({ type: 'log', message: `Local gate: ${line.trim()}` }) }
    })
  } catch (err) {
    await store.close().catch(() => undefined)
    throw err
  }
}

port.onParentGone(() => void stop(0))
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0))
port.onMessage((raw) => {
  const parsed = GateParentMessage.safeParse(raw)
  if (!parsed.success) {
    port.send({ type: 'log', message: 'Local gate process: ignored a malformed message' })
    return
  }
  const message = parsed.data
  if (message.type === 'close') {
    void stop(0)
    return
  }
  if (starting) return
  starting = true
  start(message).then(
    (s) => {
      server = s
      if (stopping) void s.close()
      else port.send({ type: 'ready', pid: process.pid, url: s.url })
    },
    (err: unknown) => {
      // A zod error's message names the fields, never their values.
      port.send({ type: 'failed', message: err instanceof Error ? err.message : String(err) })
      void stop(1)
    }
  )
})
