/**
 * A gate replica as deployed: `src/gate/cli.ts` in a process of its own (node with tsx's loader, or the build),
 * configured only through its GATE_* variables, on a free port of 127.0.0.1. Ready when it logs "approval gate listening" (its own
 * event, read from its log file); `kill` sends a signal and waits for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { hashToken, newToken } from '../../src/gate/domain/operators'
import { ReceiverInfoSeal } from '../../src/gate/domain/receiver-info'
import { PgGateStore } from '../../src/gate/store/pg-store'

const ROOT = resolve(import.meta.dirname, '../..')
const READY_MS = 60_000

export interface GateReplica {
  proc: ChildProcess
  url: string
  /** host:port, for a balancer's configuration. */
  address: string
  logFile: string
  kill(signal?: NodeJS.Signals): Promise<void>
}

const running = new Set<ChildProcess>()
let exitHook = false

/**
 * `nodeArgs`: what node runs instead of the sources under tsx, e.g. a bench's
 * `['--max-semi-space-size=2', 'out/main/gate.js']` (the build, as production runs it).
 */
export async function startGateReplica(
  dir: string,
  name: string,
  env: Record<string, string>,
  nodeArgs: string[] = ['--import', 'tsx', join(ROOT, 'src/gate/cli.ts')]
): Promise<GateReplica> {
  const logFile = join(dir, `${name}.log`)
  // Everything comes from GATE_* variables: an empty configuration file, so a gate.config.json nearby is not read.
  const config = join(dir, 'gate.config.json')
  writeFileSync(config, '{}\n')
  const fd = openSync(logFile, 'w')
  const proc = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, GATE_CONFIG: config, GATE_HOST: '127.0.0.1', GATE_PORT: '0', ...env },
    stdio: ['ignore', fd, 'pipe']
  })
  closeSync(fd)
  running.add(proc)
  if (!exitHook) {
    exitHook = true
    process.once('exit', () => {
      for (const p of running) p.kill('SIGKILL')
    })
  }
  let stderr = ''
  proc.stderr?.on('data', (c: Buffer) => void (stderr = (stderr + c.toString('utf8')).slice(-4000)))
  const exited = new Promise<void>((r) => proc.once('exit', () => r()))
  void exited.then(() => running.delete(proc))
  // The gate writes one JSON line when it listens; nothing else says so. Its log file is read every 50 ms (bounded).
  const until = performance.now() + READY_MS
  let url: string | undefined
  while (!url) {
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes('approval gate listening'))
    if (line) url = (JSON.parse(line) as { url: string }).url
    else if (proc.exitCode !== null) throw new Error(`gate ${name} exited with ${proc.exitCode}: ${stderr.trim()}`)
    else if (performance.now() > until) {
      proc.kill('SIGKILL')
      throw new Error(`gate ${name} did not listen within ${READY_MS / 1000} s: ${stderr.trim()}`)
    } else await sleep(50)
  }
  return {
    proc,
    url,
    address: url.replace(/^http:\/\//, ''),
    logFile,
    kill: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal)
      await exited
    }
  }
}

/**
 * The operators' set-up of a PostgreSQL gate, written as `operator add`, `PUT /operator/rules` and the receiver-info
 * editor would, before any replica starts: one operator, one rule approving `approveSender` (everything else rejected)
 * and each customer's sealed receiver information.
 */
export async function setUpApprovingGate(
  url: string,
  o: {
    operator: string
    approveSender: string
    receiverInfoKey: Buffer
    receivers: { customerId: string; info: Record<string, string> }[]
  }
): Promise<void> {
  const store = await PgGateStore.open({ url, now: Date.now })
  try {
    const actor = `operator:${o.operator}`
    await store.addOperator(o.operator, hashToken(newToken()))
    const base = { maxAmountByCurrency: { USD: 10_000_000 }, requireKycApproved: false, fallback: 'reject' as const }
    await store.putRules(
      {
        rules: [{ ...base, name: 'approve', allowedSenders: [o.approveSender], action: 'approve' }],
        otherwise: 'reject',
        otherwiseFallback: 'reject'
      },
      actor
    )
    const seal = new ReceiverInfoSeal(o.receiverInfoKey)
    for (const r of o.receivers) await store.putReceiverInfo(r.customerId, seal.seal(r.customerId, r.info), actor)
  } finally {
    await store.close()
  }
}
