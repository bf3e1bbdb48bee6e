import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { LOCAL_PROFILE_ID } from '../../shared/profile'
import { AppError } from '../errors'
import { secretAccount, type SecretStore } from './keychain'
import type { ProfileStore } from './profiles'
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

/** `<dataDir>/local-sandbox/state.json`: where the embedded sandbox keeps its state between runs. */
export function localSandboxStateFile(dataDir: string): string {
  return path.join(dataDir, 'local-sandbox', 'state.json')
}

/** Starts the sandbox in this process on a free loopback port with the local profile's generated credentials. */
export async function startLocalSandbox(options: LocalSandboxOptions): Promise<LocalSandbox> {
  const approvalWindowSeconds = SANDBOX_DEFAULTS.approvalWindowSeconds
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

/**
 * Starts the Local sandbox for the built-in profile: its credentials are generated once and kept in the keychain like
 * any other profile's, and the profile follows the port the sandbox got. A failure is reported, never thrown: the rest
 * of Paydesk runs without it.
 */
export async function bringUpLocalSandbox(d: {
  profiles: ProfileStore
  secrets: SecretStore
  dataDir: string
  log: (message: string) => void
}): Promise<{ sandbox?: LocalSandbox; error?: string; notice?: string }> {
  try {
    const local = d.profiles.get(LOCAL_PROFILE_ID)
    let secret = await d.secrets.get(secretAccount(LOCAL_PROFILE_ID))
    if (!secret) {
      secret = randomBytes(32).toString('base64url')
      await d.profiles.setSecret(LOCAL_PROFILE_ID, secret, { internal: true })
    }
    const sandbox = await startLocalSandbox({
      dataDir: d.dataDir,
      tokenId: local.tokenId,
      clientSecret: secret,
      log: d.log
    })
    await d.profiles.setLocalBaseUrl(sandbox.baseUrl)
    return {
      sandbox,
      ...(sandbox.corruptFileMovedTo !== undefined && {
        notice: `The Local sandbox’s saved state was unreadable and was set aside as ${sandbox.corruptFileMovedTo}; it started fresh.`
      })
    }
  } catch (error) {
    d.log(`local sandbox not started: ${error instanceof Error ? error.name : 'error'}`)
    return { error: error instanceof AppError ? error.message : 'the embedded sandbox failed to start' }
  }
}
