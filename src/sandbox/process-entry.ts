/**
 * Entry of the Local sandbox's own process. The backend starts it (Node `child_process.fork`, or Electron's
 * `utilityProcess.fork`, which hands it `process.parentPort`), sends one `start` message, and gets `ready` with the
 * listening address. The process exits when told to `close`, and also when its parent goes away, so it never
 * outlives the app.
 */
import { SandboxParentMessage, type SandboxChildMessage } from '../shared/sandbox-process'
import { createSandboxServer, type SandboxServer } from './server'
import { parentChannel } from '../shared/parent-channel'

const port = parentChannel<SandboxChildMessage>(process, 'The sandbox process entry')
let server: SandboxServer | undefined
let stopping = false

async function stop(code: number): Promise<void> {
  if (stopping) return
  stopping = true
  await server?.close().catch(() => undefined)
  process.exit(code)
}

port.onParentGone(() => void stop(0))
// Ctrl-C in a terminal signals the whole process group: save and close like the parent does, instead of dying mid-way.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0))
port.onMessage((raw) => {
  const parsed = SandboxParentMessage.safeParse(raw)
  if (!parsed.success) {
    port.send({ type: 'log', message: 'Local sandbox process: ignored a malformed message' })
    return
  }
  const message = parsed.data
  if (message.type === 'close') {
    void stop(0)
    return
  }
  if (server) return
  createSandboxServer({
    host: '127.0.0.1',
    port: message.port,
    dataFile: message.dataFile,
    tokenId: message.tokenId,
    clientSecret: message.clientSecret,
    ...(message.generateTransactions !== undefined && { generateTransactions: message.generateTransactions }),
    ...(message.approvalDeferralSeconds !== undefined && { approvalDeferralSeconds: message.approvalDeferralSeconds }),
    ...(message.nativeBinding !== undefined && { nativeBinding: message.nativeBinding }),
    log: (m) => port.send({ type: 'log', message: m })
  }).then(
    (s) => {
      server = s
      port.send({
        type: 'ready',
        pid: process.pid,
        baseUrl: s.baseUrl,
        ...(s.state.corruptFileMovedTo !== undefined && { corruptFileMovedTo: s.state.corruptFileMovedTo })
      })
    },
    (err: unknown) => {
      port.send({ type: 'failed', message: err instanceof Error ? err.message : String(err) })
      void stop(1)
    }
  )
})
