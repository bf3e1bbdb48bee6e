/**
 * `npm run sandbox -- --port <n> [--data <file> | --memory] [--token-id <id>] [--client-secret <secret>]
 *                     [--time-scale <factor>] [--approval-deferral <seconds>] [--faults] [--no-seed]
 *                     [--generate-transactions <n>]`
 *
 * Prints the webhook public key, then `Local sandbox listening on <baseUrl>` once ready; SIGINT/SIGTERM close it
 * cleanly.
 */
import { MAX_GENERATED_TRANSACTIONS } from './state/generate'
import { SANDBOX_DEFAULTS } from './state/defaults'
import { createSandboxServer, type SandboxServerOptions } from './server'
import { MAX_APPROVAL_DEFERRAL_SECONDS, validApprovalDeferral } from './state/timing'

export const USAGE = `Usage: npm run sandbox -- [options]

  --port <n>                 port on 127.0.0.1 (default ${SANDBOX_DEFAULTS.port}; 0 picks a free port)
  --data <file>              keep state in this SQLite file (survives restarts; an old JSON one is imported)
  --memory                   keep nothing (the default when --data is not given)
  --token-id <id>            API token id (default ${SANDBOX_DEFAULTS.tokenId})
  --client-secret <secret>   API client secret (default ${SANDBOX_DEFAULTS.clientSecret})
  --time-scale <factor>      multiply every simulated delay (default 1; 0.01 = 100x faster)
  --approval-deferral <s>    seconds a payment answered 202 waits for approve/reject (default 5, the service's;
                             longer only for tests and demos, at most ${MAX_APPROVAL_DEFERRAL_SECONDS})
  --faults                   enable fault injection (POST /__faults); for tests only
  --no-seed                  start empty instead of with demo data
  --generate-transactions <n>  add a deterministic synthetic 12-month history of n transactions (once per data file)
  --help                     show this help
`

export class UsageError extends Error {}

export function parseArgs(argv: string[]): SandboxServerOptions & { help?: boolean } {
  const opts: SandboxServerOptions & { help?: boolean } = { port: SANDBOX_DEFAULTS.port }
  const value = (i: number, name: string): string => {
    const v = argv[i + 1]
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`)
    return v
  }
  const number = (raw: string, name: string, check: (n: number) => boolean, what: string): number => {
    const n = Number(raw)
    if (raw.trim() === '' || !Number.isFinite(n) || !check(n))
      throw new UsageError(`${name} must be ${what} (got "${raw}")`)
    return n
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const eq = arg.indexOf('=')
    const [name, inline] = arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined]
    const take = (): string => {
      if (inline !== undefined) return inline
      const v = value(i, name)
      i++
      return v
    }
    switch (name) {
      case '--port':
        opts.port = number(
          take(),
          name,
          (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
          'an integer from 0 to 65535'
        )
        break
      case '--data':
        opts.dataFile = take()
        break
      case '--memory':
        opts.memory = true
        break
      case '--token-id':
        opts.tokenId = take()
        break
      case '--client-secret':
        opts.clientSecret = take()
        break
      case '--time-scale':
        opts.timeScale = number(take(), name, (n) => n > 0, 'a positive number')
        break
      case '--approval-deferral':
        opts.approvalDeferralSeconds = number(
          take(),
          name,
          validApprovalDeferral,
          `a positive number of seconds up to ${MAX_APPROVAL_DEFERRAL_SECONDS}`
        )
        break
      case '--faults':
        opts.faults = true
        break
      case '--no-seed':
        opts.seed = false
        break
      case '--generate-transactions':
        opts.generateTransactions = number(
          take(),
          name,
          (n) => Number.isInteger(n) && n >= 1 && n <= MAX_GENERATED_TRANSACTIONS,
          `an integer from 1 to ${MAX_GENERATED_TRANSACTIONS}`
        )
        break
      case '--help':
      case '-h':
        opts.help = true
        break
      default:
        throw new UsageError(`Unknown option ${arg}`)
    }
  }
  if (opts.memory && opts.dataFile !== undefined) throw new UsageError('Use either --data <file> or --memory, not both')
  if (opts.tokenId === '' || opts.clientSecret === '') throw new UsageError('Credentials must not be empty')
  return opts
}

async function main(): Promise<void> {
  let opts: ReturnType<typeof parseArgs>
  try {
    opts = parseArgs(process.argv.slice(2))
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${USAGE}`)
      process.exit(2)
    }
    throw err
  }
  if (opts.help) {
    process.stdout.write(USAGE)
    return
  }
  const { help: _help, ...serverOptions } = opts
  let server: Awaited<ReturnType<typeof createSandboxServer>>
  try {
    server = await createSandboxServer({ ...serverOptions, log: (m) => process.stderr.write(`${m}\n`) })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const msg =
      code === 'EADDRINUSE'
        ? `Port ${opts.port} is already in use; pick another with --port <n> (or --port 0 for a free one)`
        : err instanceof Error
          ? err.message
          : String(err)
    process.stderr.write(`Local sandbox could not start: ${msg}\n`)
    process.exit(1)
  }
  // What the service's dashboard shows: a receiver verifies X-Grid-Signature with it (public, not a secret). Printed
  // before the ready line, so whoever waits for that line has the key too.
  process.stdout.write(`Webhook signing public key (X-Grid-Signature, ECDSA P-256):\n${server.webhooks.publicKeyPem}`)
  process.stdout.write(
    `Token id: ${server.tokenId}${opts.clientSecret === undefined ? ` / client secret: ${server.clientSecret} (defaults)` : ''}; ` +
      `${opts.dataFile ? `state in ${opts.dataFile}` : 'in memory (nothing is kept)'}` +
      `${opts.faults ? '; fault injection ON' : ''}\n`
  )
  process.stdout.write(`Local sandbox listening on ${server.baseUrl}\n`)
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) {
      process.stderr.write(`Second ${signal}: exiting now\n`)
      process.exit(1)
    }
    stopping = true
    server
      .close()
      .then(() => {
        process.stdout.write('Local sandbox stopped\n')
        process.exit(0)
      })
      .catch((err: unknown) => {
        process.stderr.write(
          `Local sandbox did not close cleanly: ${err instanceof Error ? err.message : String(err)}\n`
        )
        process.exit(1)
      })
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

const isMain = (() => {
  const entry = process.argv[1] ?? ''
  return /[\\/]sandbox[\\/]cli\.(ts|js|mjs)$/.test(entry)
})()
if (isMain) void main()
