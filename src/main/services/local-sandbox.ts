import { existsSync, renameSync } from 'node:fs'
import path from 'node:path'
import { createSandboxServer, SANDBOX_DEFAULTS } from '../../sandbox/server'

/** What Paydesk needs from the embedded sandbox server. */
export interface LocalSandbox {
  baseUrl: string
  /** How long the sandbox lets an incoming payment wait for approval: the deadline Paydesk shows. */
  approvalWindowMs: number
  /** Where a corrupt state file was moved at start, if it was. */
  corruptFileMovedTo?: string
  close(): Promise<void>
}

export interface LocalSandboxOptions {
  dataDir: string
  tokenId: string
  clientSecret: string
  log: (message: string) => void
}

/** `<dataDir>/local-sandbox/state.db`: where the embedded sandbox keeps its state between runs (SQLite). */
export function localSandboxStateFile(dataDir: string): string {
  return path.join(dataDir, 'local-sandbox', 'state.db')
}

/**
 * Earlier versions kept `state.json`; moving it to the new name lets the sandbox import it (it keeps the JSON as
 * `state.db.v1.json`).
 */
function adoptLegacyStateFile(dataDir: string): void {
  const legacy = path.join(dataDir, 'local-sandbox', 'state.json')
  const current = localSandboxStateFile(dataDir)
  if (existsSync(legacy) && !existsSync(current)) renameSync(legacy, current)
}

/** Starts the sandbox in this process on a free loopback port with the local profile's generated credentials. */
export async function startLocalSandbox(options: LocalSandboxOptions): Promise<LocalSandbox> {
  const approvalWindowSeconds = SANDBOX_DEFAULTS.approvalWindowSeconds
  adoptLegacyStateFile(options.dataDir)
  const server = await createSandboxServer({
    host: '127.0.0.1',
    port: 0,
    tokenId: options.tokenId,
    clientSecret: options.clientSecret,
    dataFile: localSandboxStateFile(options.dataDir),
    approvalWindowSeconds,
    log: (m) => options.log(m)
  })
  if (server.state.corruptFileMovedTo) {
    options.log(`Local sandbox: its state file was unreadable and was moved to ${server.state.corruptFileMovedTo}`)
  }
  return {
    baseUrl: server.baseUrl,
    approvalWindowMs: approvalWindowSeconds * 1000,
    ...(server.state.corruptFileMovedTo !== undefined && { corruptFileMovedTo: server.state.corruptFileMovedTo }),
    close: () => server.close()
  }
}
