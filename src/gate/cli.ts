/**
 * `npm run gate` starts the approval gate; `npm run gate -- operator add NAME` prints a new operator's token (once:
 * only its hash is kept); `npm run gate -- verify-log` checks the decision log's hash chain and exits 1 on a broken
 * one. Configuration: docs/gate.md (GATE_CONFIG, GATE_* variables, GATE_SECRETS_FILE).
 */
import { configuredStore, loadConfig, storeChoice } from './config'
import { hashToken, newToken, OPERATOR_NAME } from './domain/operators'
import { batchedLog } from './http/log-stream'
import { startGateServer } from './http/server'
import { openStore } from './store/open-store'

const USAGE = 'usage: npm run gate [-- operator add NAME | verify-log]'

export async function main(args: string[], out: (line: string) => void): Promise<number> {
  if (args[0] === 'operator' && args[1] === 'add') {
    const name = args.slice(2).join(' ').trim()
    if (!OPERATOR_NAME.test(name)) {
      out('An operator name is 1 to 64 letters, digits, spaces or ._@- and starts with a letter or digit.')
      return 2
    }
    const store = await openStore(configuredStore())
    try {
      const token = newToken()
      await store.addOperator(name, hashToken(token))
      out(`Operator ${name} added. Their token (shown once, keep it in Paydesk's keychain):`)
      out(token)
      return 0
    } catch (err) {
      out(err instanceof Error ? err.message : String(err))
      return 1
    } finally {
      await store.close()
    }
  }
  if (args[0] === 'verify-log') {
    const store = await openStore(configuredStore())
    try {
      const result = await store.verifyLog()
      if (result.ok) {
        out(`The decision log is intact: ${result.rows} rows.`)
        return 0
      }
      out(`The decision log is broken at row ${result.seq}: ${result.problem}.`)
      return 1
    } finally {
      await store.close()
    }
  }
  if (args.length > 0) {
    out(USAGE)
    return 2
  }
  const config = loadConfig()
  const server = await startGateServer({
    config,
    store: await openStore(storeChoice(config), Date.now, (m) => process.stderr.write(`${m}\n`), true),
    logStream: batchedLog()
  })
  server.app.log.info({ url: server.url, webhookPath: config.webhookPath }, 'approval gate listening')
  const stop = (): void => {
    server.app.log.info('stopping: answering the webhooks in flight')
    void server.close().then(() => process.exit(0))
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  return -1
}

// Started as a program: src/gate/cli.ts under tsx (development), or the build's out/main/gate.js (production).
if (/[\\/]gate(?:[\\/]cli)?\.(ts|js|mjs)$/.test(process.argv[1] ?? '')) {
  main(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)).then(
    (code) => {
      if (code >= 0) process.exitCode = code
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
      process.exitCode = 1
    }
  )
}
