/**
 * Entry of the Local profile's approval gate, in a process of its own (src/main/infra/local-gate.ts starts it: a
 * Node fork, or Electron's utilityProcess, which hands it `process.parentPort`). One `start` message carries the
 * configuration and its secrets (never argv, the environment or a log); the gate registers Paydesk's operator token
 * (only its hash is kept), writes the demo receiver information it has none for, listens on 127.0.0.1 and answers
 * `ready` with its address. It stops gracefully when told to `close` or when its parent goes away.
 */
import { runChildEntry } from '../shared/child-entry'
import { GateParentMessage, type GateChildMessage, type GateStartMessage } from '../shared/gate-process'
import { GateConfig } from './config'
import { hashToken } from './domain/operators'
import { ReceiverInfoSeal } from './domain/receiver-info'
import { startGateServer, type GateServer } from './http/server'
import { SqliteGateStore } from './store/sqlite-store'

async function start(m: GateStartMessage, log: (line: string) => void): Promise<GateServer> {
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
      logStream: { write: (line) => log(`Local gate: ${line.trim()}`) }
    })
  } catch (err) {
    await store.close().catch(() => undefined)
    throw err
  }
}

runChildEntry<GateStartMessage, GateServer, GateChildMessage>(process, {
  name: 'Local gate process',
  read: (raw) => GateParentMessage.safeParse(raw).data,
  start,
  ready: (s, pid) => ({ type: 'ready', pid, url: s.url })
})
