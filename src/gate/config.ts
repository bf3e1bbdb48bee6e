/**
 * The gate's configuration, validated at start: a JSON file (GATE_CONFIG, default gate.config.json) and environment
 * variables, the environment winning. Service credentials and the receiver information key come from the environment
 * or from a secrets file that only its owner may read (0600), never from the main file, which is meant to be shared.
 */
import { readFileSync, statSync } from 'node:fs'
import { z } from 'zod'

const Port = z.coerce.number().int().min(0).max(65535)
const Ms = z.coerce.number().int().positive()

/** The real service's deadline for approve/reject after a 202 (reference): 5 s. */
export const SERVICE_DEADLINE_MS = 5000
/** What the fallback's call is left at least, between `marginMs` and the deadline (the 4900 cap of a 5 s deadline). */
const FALLBACK_CALL_MS = 100

export const GateConfig = z
  .strictObject({
    host: z.string().min(1).default('127.0.0.1'),
    port: Port.default(8787),
    /** The SQLite file (created 0600), used unless `databaseUrl` names a PostgreSQL database. */
    database: z.string().min(1).default('gate.db'),
    /**
     * postgres://user@host:port/db: PostgreSQL instead of SQLite, for two or more replicas behind a load balancer. A URL
     * holding a password belongs in the environment or the secrets file (or use PGPASSWORD / ~/.pgpass).
     */
    databaseUrl: z
      .url({ protocol: /^postgres(ql)?$/, error: 'databaseUrl must be a postgres:// or postgresql:// URL' })
      .optional(),
    /** PEM public key from the service's dashboard, inline or as a file path. */
    webhookPublicKey: z.string().min(1, 'webhookPublicKey is required: the PEM public key from the dashboard'),
    serviceBaseUrl: z.url({ protocol: /^https?$/, error: 'serviceBaseUrl must be an http(s) URL' }),
    serviceTokenId: z.string().min(1, 'serviceTokenId is required (GATE_SERVICE_TOKEN_ID)'),
    serviceClientSecret: z.string().min(1, 'serviceClientSecret is required (GATE_SERVICE_CLIENT_SECRET)'),
    /** 32 bytes, base64 or hex: seals the receiver information at rest (AES-256-GCM). */
    receiverInfoKey: z
      .string()
      .refine((s) => keyBytes(s) !== null, 'receiverInfoKey must be 32 bytes in base64 or 64 hex digits'),
    receiverLookupUrl: z.url({ protocol: /^https?$/ }).optional(),
    webhookPath: z.string().startsWith('/').default('/webhooks'),
    /** After receipt, when an unanswered prompt gets its fallback: below `serviceDeadlineMs` (see the refine below). */
    marginMs: Ms.default(4000),
    /**
     * How long the service waits for approve/reject after a 202. The real service allows 5 s: a longer one only for a
     * sandbox whose window was stretched for a test or a demo (its approvalDeferralSeconds), never for the real service.
     */
    serviceDeadlineMs: Ms.max(3_600_000).default(SERVICE_DEADLINE_MS),
    toleranceMs: Ms.default(5 * 60_000),
    lookupTimeoutMs: Ms.max(3000).default(1500),
    /** Largest body read, webhook or command (a pending-payment webhook is a few kB). */
    bodyLimitBytes: Ms.max(10 * 1024 * 1024).default(256 * 1024),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info')
  })
  .refine((c) => c.marginMs <= c.serviceDeadlineMs - FALLBACK_CALL_MS, {
    path: ['marginMs'],
    error: (issue) => {
      const c = issue.input as { serviceDeadlineMs: number }
      return `marginMs must be at most ${c.serviceDeadlineMs - FALLBACK_CALL_MS} (${FALLBACK_CALL_MS} ms before serviceDeadlineMs, ${c.serviceDeadlineMs}), so the fallback reaches the service in time`
    }
  })
export type GateConfig = z.infer<typeof GateConfig>

export function keyBytes(s: string): Buffer | null {
  const t = s.trim()
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex')
  if (/^[A-Za-z0-9+/]{43}=?$/.test(t)) {
    const b = Buffer.from(t, 'base64')
    return b.length === 32 ? b : null
  }
  return null
}

const ENV: Record<string, keyof GateConfig> = {
  GATE_HOST: 'host',
  GATE_PORT: 'port',
  GATE_DATABASE: 'database',
  GATE_DATABASE_URL: 'databaseUrl',
  GATE_WEBHOOK_PUBLIC_KEY: 'webhookPublicKey',
  GATE_SERVICE_BASE_URL: 'serviceBaseUrl',
  GATE_SERVICE_TOKEN_ID: 'serviceTokenId',
  GATE_SERVICE_CLIENT_SECRET: 'serviceClientSecret',
  GATE_RECEIVER_INFO_KEY: 'receiverInfoKey',
  GATE_RECEIVER_LOOKUP_URL: 'receiverLookupUrl',
  GATE_WEBHOOK_PATH: 'webhookPath',
  GATE_MARGIN_MS: 'marginMs',
  GATE_SERVICE_DEADLINE_MS: 'serviceDeadlineMs',
  GATE_LOG_LEVEL: 'logLevel'
}

const SECRET_KEYS = new Set<string>(['serviceTokenId', 'serviceClientSecret', 'receiverInfoKey'])
/** Keys the secrets file may hold besides the secrets proper: a database URL may carry a password. */
const SECRETS_FILE_KEYS = new Set<string>([...SECRET_KEYS, 'databaseUrl'])

/** True when a URL carries a password (never echoed: only whether it has one). */
function hasPassword(url: unknown): boolean {
  if (typeof url !== 'string') return false
  try {
    return new URL(url).password !== ''
  } catch {
    return false
  }
}

function readJsonFile(file: string, what: string): Record<string, unknown> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new Error(`${what} ${file} cannot be read`)
  }
  try {
    const v = JSON.parse(text) as unknown
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object')
    return v as Record<string, unknown>
  } catch {
    throw new Error(`${what} ${file} is not a JSON object`)
  }
}

/** Reads and validates the configuration; throws one sentence per problem, never echoing a secret's value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GateConfig {
  const file = env['GATE_CONFIG'] ?? 'gate.config.json'
  const fromFile = env['GATE_CONFIG'] !== undefined || exists(file) ? readJsonFile(file, 'The configuration file') : {}
  for (const k of SECRET_KEYS)
    if (k in fromFile) throw new Error(`${k} belongs in the environment or the secrets file, not in ${file}`)
  if (hasPassword(fromFile['databaseUrl']))
    throw new Error(`databaseUrl holds a password: put it in the environment or the secrets file, not in ${file}`)
  let fromSecrets: Record<string, unknown> = {}
  const secretsFile = env['GATE_SECRETS_FILE']
  if (secretsFile) {
    if ((statSync(secretsFile).mode & 0o077) !== 0)
      throw new Error(`The secrets file ${secretsFile} must be readable by its owner only (chmod 600)`)
    fromSecrets = readJsonFile(secretsFile, 'The secrets file')
    for (const k of Object.keys(fromSecrets))
      if (!SECRETS_FILE_KEYS.has(k))
        throw new Error(`The secrets file may hold only ${[...SECRETS_FILE_KEYS].join(', ')}`)
  }
  const fromEnv: Record<string, unknown> = {}
  for (const [name, key] of Object.entries(ENV)) if (env[name] !== undefined) fromEnv[key] = env[name]
  const merged: Record<string, unknown> = { ...fromFile, ...fromSecrets, ...fromEnv }
  const key = merged['webhookPublicKey']
  if (typeof key === 'string' && !key.includes('-----BEGIN') && exists(key))
    merged['webhookPublicKey'] = readFileSync(key, 'utf8')
  const parsed = GateConfig.safeParse(merged)
  if (!parsed.success)
    throw new Error(
      `The gate's configuration is not valid:\n${parsed.error.issues.map((i) => `- ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}`
    )
  return parsed.data
}

/**
 * The database alone, for `verify-log` and `operator add`, which run where the service credentials may not be set:
 * GATE_DATABASE, else the configuration file's `database`, else the default.
 */
export function configuredDatabase(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['GATE_DATABASE']
  if (fromEnv) return fromEnv
  const file = env['GATE_CONFIG'] ?? 'gate.config.json'
  const fromFile = env['GATE_CONFIG'] !== undefined || exists(file) ? readJsonFile(file, 'The configuration file') : {}
  return GateConfig.shape.database.parse(fromFile['database'])
}

export type StoreChoice = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }

/**
 * Which store `verify-log` and `operator add` open: GATE_DATABASE_URL (PostgreSQL), else the secrets file's or the
 * configuration file's `databaseUrl`, else the SQLite file of `configuredDatabase`.
 */
export function configuredStore(env: NodeJS.ProcessEnv = process.env): StoreChoice {
  const file = env['GATE_CONFIG'] ?? 'gate.config.json'
  const fromFile = env['GATE_CONFIG'] !== undefined || exists(file) ? readJsonFile(file, 'The configuration file') : {}
  const secretsFile = env['GATE_SECRETS_FILE']
  const fromSecrets = secretsFile ? readJsonFile(secretsFile, 'The secrets file') : {}
  const url = env['GATE_DATABASE_URL'] ?? fromSecrets['databaseUrl'] ?? fromFile['databaseUrl']
  if (url === undefined) return { kind: 'sqlite', file: configuredDatabase(env) }
  const parsed = GateConfig.shape.databaseUrl.safeParse(url)
  if (!parsed.success || !parsed.data) throw new Error('databaseUrl must be a postgres:// or postgresql:// URL')
  return { kind: 'postgres', url: parsed.data }
}

export function storeChoice(config: GateConfig): StoreChoice {
  return config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'sqlite', file: config.database }
}

function exists(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}
