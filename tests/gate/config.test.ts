/**
 * The gate's configuration: a file and the environment, validated whole; service credentials and the receiver key
 * only from the environment or a secrets file its owner alone can read, never from the shared file; errors that say
 * what is wrong without repeating a secret.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { configuredDatabase, configuredStore, loadConfig } from '../../src/gate/config'
import { newSigningKeyPair } from '../../src/sandbox/state/webhook-signing'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-config-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const key = '11'.repeat(32)
const publicKey = newSigningKeyPair().publicKeyPem

function files(main: Record<string, unknown>, secrets?: Record<string, unknown>, mode = 0o600) {
  const config = join(dir, 'gate.config.json')
  writeFileSync(config, JSON.stringify(main))
  const env: Record<string, string> = { GATE_CONFIG: config }
  if (secrets) {
    const file = join(dir, 'secrets.json')
    writeFileSync(file, JSON.stringify(secrets))
    chmodSync(file, mode)
    env['GATE_SECRETS_FILE'] = file
  }
  return env
}

const shared = { serviceBaseUrl: 'https://api.example.com/grid/2025-10-13', webhookPublicKey: publicKey }
const secrets = { serviceTokenId: 'tok', serviceClientSecret: 'very-secret-value', receiverInfoKey: key }

describe('loadConfig', () => {
  it('reads the file and a 0600 secrets file, with defaults for the rest', () => {
    const c = loadConfig(files(shared, secrets))
    expect(c).toMatchObject({ ...shared, ...secrets, port: 8787, marginMs: 4000, webhookPath: '/webhooks' })
  })

  it('takes credentials from the environment, which wins over the files', () => {
    const env = {
      ...files(shared),
      GATE_SERVICE_TOKEN_ID: 't',
      GATE_SERVICE_CLIENT_SECRET: 's',
      GATE_RECEIVER_INFO_KEY: key,
      GATE_PORT: '9000'
    }
    expect(loadConfig(env)).toMatchObject({ serviceTokenId: 't', port: 9000 })
  })

  it('refuses a secrets file others can read, and secrets in the shared file', () => {
    expect(() => loadConfig(files(shared, secrets, 0o644))).toThrow(/readable by its owner only/)
    expect(() => loadConfig(files({ ...shared, serviceClientSecret: 'x' }))).toThrow(
      /serviceClientSecret belongs in the environment or the secrets file/
    )
  })

  it('names every problem without echoing a secret', () => {
    let message = ''
    try {
      loadConfig(files({ ...shared, marginMs: 6000 }, { ...secrets, receiverInfoKey: 'too-short-very-secret-value' }))
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toMatch(/marginMs/)
    expect(message).toMatch(/receiverInfoKey must be 32 bytes/)
    expect(message).not.toContain('very-secret-value')
  })

  it('gives a prompt its fallback before the service deadline: 4 s of the real 5 s by default', () => {
    const c = loadConfig(files(shared, secrets))
    expect(c).toMatchObject({ marginMs: 4000, serviceDeadlineMs: 5000 })
    expect(loadConfig(files({ ...shared, marginMs: 4900 }, secrets)).marginMs).toBe(4900)
    expect(() => loadConfig(files({ ...shared, marginMs: 4901 }, secrets))).toThrow(
      /marginMs: marginMs must be at most 4900 \(100 ms before serviceDeadlineMs, 5000\)/
    )
  })

  it('takes a longer service deadline (a stretched sandbox window) with a margin below it, from file or environment', () => {
    const stretched = loadConfig(files({ ...shared, serviceDeadlineMs: 30_000, marginMs: 25_000 }, secrets))
    expect(stretched).toMatchObject({ marginMs: 25_000, serviceDeadlineMs: 30_000 })
    const env = { ...files(shared, secrets), GATE_SERVICE_DEADLINE_MS: '30000', GATE_MARGIN_MS: '29900' }
    expect(loadConfig(env)).toMatchObject({ marginMs: 29_900, serviceDeadlineMs: 30_000 })
    expect(() => loadConfig({ ...env, GATE_MARGIN_MS: '30000' })).toThrow(/marginMs must be at most 29900/)
    // A margin beyond the real 5 s needs the deadline said too; and the deadline has a sane bound.
    expect(() => loadConfig(files({ ...shared, marginMs: 25_000 }, secrets))).toThrow(/marginMs must be at most 4900/)
    expect(() => loadConfig(files({ ...shared, serviceDeadlineMs: 3_600_001 }, secrets))).toThrow(/serviceDeadlineMs/)
    expect(() => loadConfig(files({ ...shared, serviceDeadlineMs: 0 }, secrets))).toThrow(/serviceDeadlineMs/)
  })

  it('finds the database for verify-log and operator add without the service credentials', () => {
    const env = files({ ...shared, database: '/var/lib/gate/x.db' })
    expect(() => loadConfig(env)).toThrow(/serviceTokenId/)
    expect(configuredDatabase(env)).toBe('/var/lib/gate/x.db')
    expect(configuredDatabase({ ...env, GATE_DATABASE: '/tmp/y.db' })).toBe('/tmp/y.db')
  })

  it('chooses PostgreSQL when a database URL is set, and keeps a URL with a password out of the shared file', () => {
    const pgUrl = 'postgres://gate@db.internal:5432/gate'
    expect(loadConfig(files({ ...shared, databaseUrl: pgUrl }, secrets)).databaseUrl).toBe(pgUrl)
    expect(configuredStore(files({ ...shared, database: '/tmp/x.db' }))).toEqual({ kind: 'sqlite', file: '/tmp/x.db' })
    expect(configuredStore({ ...files(shared), GATE_DATABASE_URL: pgUrl })).toEqual({ kind: 'postgres', url: pgUrl })
    const withPassword = 'postgres://gate:hunter2-very-secret@db.internal/gate'
    const inSecrets = loadConfig(files(shared, { ...secrets, databaseUrl: withPassword }))
    expect(inSecrets.databaseUrl).toBe(withPassword)
    let message = ''
    try {
      loadConfig(files({ ...shared, databaseUrl: withPassword }, secrets))
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toMatch(/databaseUrl holds a password/)
    expect(message).not.toContain('hunter2')
    expect(() => loadConfig(files({ ...shared, databaseUrl: 'mysql://x@y/z' }, secrets))).toThrow(
      /databaseUrl must be a postgres:\/\/ or postgresql:\/\/ URL/
    )
  })
})
