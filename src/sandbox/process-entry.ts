/**
 * Entry of the Local sandbox's own process. The backend starts it (Node `child_process.fork`, or Electron's
 * `utilityProcess.fork`, which hands it `process.parentPort`), sends one `start` message, and gets `ready` with the
 * listening address. The process exits when told to `close`, and also when its parent goes away, so it never
 * outlives the app.
 */
import { runChildEntry } from '../shared/child-entry'
import { SandboxParentMessage, type SandboxChildMessage, type SandboxStartMessage } from '../shared/sandbox-process'
import { createSandboxServer, type SandboxServer } from './server'

runChildEntry<SandboxStartMessage, SandboxServer, SandboxChildMessage>(process, {
  name: 'Local sandbox process',
  read: (raw) => SandboxParentMessage.safeParse(raw).data,
  start: (message, log) =>
    createSandboxServer({
      host: '127.0.0.1',
      port: message.port,
      dataFile: message.dataFile,
      tokenId: message.tokenId,
      clientSecret: message.clientSecret,
      ...(message.generateTransactions !== undefined && { generateTransactions: message.generateTransactions }),
      ...(message.approvalDeferralSeconds !== undefined && {
        approvalDeferralSeconds: message.approvalDeferralSeconds
      }),
      ...(message.nativeBinding !== undefined && { nativeBinding: message.nativeBinding }),
      log
    }),
  ready: (s, pid) => ({
    type: 'ready',
    pid,
    baseUrl: s.baseUrl,
    ...(s.state.corruptFileMovedTo !== undefined && { corruptFileMovedTo: s.state.corruptFileMovedTo })
  })
})
