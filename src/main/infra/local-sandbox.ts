import { existsSync, renameSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { getPriority, setPriority } from 'node:os'
import path from 'node:path'
import { SandboxChildMessage, type SandboxStartMessage } from '../../shared/sandbox-process'
import { parseGenerateCount } from '../../sandbox/state/generate'
import { BASE_PATH } from '../../sandbox/state/defaults'
import { nodeSandboxLauncher, type SandboxLauncher, type SandboxProcess } from './child-launcher'

/** What Paydesk needs from the embedded sandbox, which runs in a process of its own. */
export interface LocalSandbox {
  /** Known at once (the port is chosen before the process starts), so the profile can point at it while it loads. */
  baseUrl: string
  /** Resolves once the sandbox answers requests; rejects with a clear message if it could not start. */
  ready: Promise<LocalSandboxReady>
  /** The sandbox process's id (undefined if it could not be spawned). */
  pid: number | undefined
  /** Called once if the process ends without being asked to (crash, killed): with a message for the operator. */
  onUnexpectedExit(listener: (message: string) => void): void
  close(): Promise<void>
}

interface LocalSandboxReady {
  pid: number
  /** Where a corrupt state file was moved at start, if it was. */
  corruptFileMovedTo?: string
}

interface LocalSandboxOptions {
  dataDir: string
  tokenId: string
  clientSecret: string
  log: (message: string) => void
  /** How to start the sandbox's process; default: a Node child process (browser mode, tests). */
  launcher?: SandboxLauncher
  /** Synthetic history to add once (PAYDESK_LOCAL_GENERATE_TRANSACTIONS). */
  generateTransactions?: number
  /** TEST-ONLY (PAYDESK_TEST_APPROVAL_WINDOW_MS): how long a 202'd payment waits for approve/reject; default 5 s. */
  approvalWindowMs?: number
  /** A big state to load (`localSandboxIsBig`): the process runs at SANDBOX_NICENESS. */
  lowPriority?: boolean
  /** SQLite native addon for the sandbox process's ABI, when it is not Node's. */
  nativeBinding?: string
  /**
   * The address the Local profile had last time: its port is taken again when it is free, so the profile's address
   * stays the same from run to run and the profile list is not rewritten (an fsync) on the way to the first screen.
   */
  previousBaseUrl?: string
}

/**
 * The niceness (Windows: below normal) of a sandbox with a big state to load (`lowPriority`). It stands in for a remote
 * service: loading a big saved state takes seconds of CPU, and on a small machine that must not slow the window the
 * operator is waiting for, which reads the cache meanwhile. A small state is not lowered: its start is a third of a
 * second of CPU, which at this niceness, beside three busy processes on two cores, stretched to about 4 s (0.6-0.8 s
 * at the app's own), and the first sync, a fresh install's first screen, waits for it.
 */
export const SANDBOX_NICENESS = 10

/** How long close() waits for the process to save and exit before it is killed. */
const CLOSE_GRACE_MS = 5_000

/** `<dataDir>/local-sandbox/state.db`: where the embedded sandbox keeps its state between runs (SQLite). */
export function localSandboxStateFile(dataDir: string): string {
  return path.join(dataDir, 'local-sandbox', 'state.db')
}

/** `PAYDESK_LOCAL_GENERATE_TRANSACTIONS=N`: a synthetic history for the embedded sandbox (throws on a bad value). */
export function generateCountFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  return parseGenerateCount(env.PAYDESK_LOCAL_GENERATE_TRANSACTIONS, 'PAYDESK_LOCAL_GENERATE_TRANSACTIONS')
}

/**
 * `PAYDESK_TEST_APPROVAL_WINDOW_MS=N` — TEST-ONLY, never for operators: stretches the Local sandbox's approval window
 * after a 202 (the service's 5 s) to N ms, and moves the Local gate's deadline and fallback with it (`localGateTiming`),
 * so an end-to-end test clicks Approve on a prompt held open instead of racing the real 4 s fallback on a loaded
 * machine. Unset, everything stays at the real protocol's 5 s / 4 s; an installed (packaged) app ignores it. Throws on
 * a value that is not a whole number of ms from TEST_APPROVAL_WINDOW_MIN_MS to an hour.
 */
export function testApprovalWindowFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  packaged: boolean = isPackagedElectron()
): number | undefined {
  const raw = env.PAYDESK_TEST_APPROVAL_WINDOW_MS
  if (raw === undefined || raw === '' || packaged) return undefined
  const n = Number(raw)
  if (!/^\d+$/.test(raw.trim()) || n < TEST_APPROVAL_WINDOW_MIN_MS || n > 3_600_000)
    throw new Error(
      `PAYDESK_TEST_APPROVAL_WINDOW_MS must be a whole number of milliseconds from ${TEST_APPROVAL_WINDOW_MIN_MS} to 3600000 (got "${raw}")`
    )
  return n
}

/** The shortest test approval window: the gate's fallback comes FALLBACK_LEAD_MS before it, at 5 s or later. */
const TEST_APPROVAL_WINDOW_MIN_MS = 10_000
/** How long before a stretched window's end the Local gate gives its fallback: time for its call under load. */
const FALLBACK_LEAD_MS = 5_000

/** The Local gate's deadline and fallback for a stretched approval window (the gate's defaults, 5 s / 4 s, else). */
export function localGateTiming(approvalWindowMs: number): { serviceDeadlineMs: number; marginMs: number } {
  return { serviceDeadlineMs: approvalWindowMs, marginMs: approvalWindowMs - FALLBACK_LEAD_MS }
}

/** An installed Electron app (not `electron .` in development, not Node): test-only settings do not apply there. */
function isPackagedElectron(): boolean {
  return process.versions.electron !== undefined && !(process as { defaultApp?: boolean }).defaultApp
}

/** State files above this size load for a noticeable time: the backend then does not wait for the sandbox. */
const BIG_STATE_BYTES = 16 * 2 ** 20

/** True when the sandbox will take a while to be ready: a history to generate, or a large state file to load. */
export function localSandboxIsBig(dataDir: string, generateTransactions: number | undefined): boolean {
  if (generateTransactions !== undefined) return true
  for (const file of [localSandboxStateFile(dataDir), path.join(dataDir, 'local-sandbox', 'state.json')]) {
    try {
      if (statSync(file).size > BIG_STATE_BYTES) return true
    } catch {
      // No such file: nothing to load.
    }
  }
  return false
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

/**
 * A free loopback port, so the address is known before the sandbox has loaded its data: `preferred` when it is free,
 * else any.
 */
export async function freePort(preferred: number | undefined): Promise<number> {
  if (preferred !== undefined) {
    try {
      return await probePort(preferred)
    } catch {
      // Taken by another program since the last run (or not ours to bind): any free port does.
    }
  }
  return probePort(0)
}

async function probePort(port: number): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen(port, '127.0.0.1', resolve)
  })
  const address = probe.address()
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no loopback port available')
  return address.port
}

/** The port of a Local sandbox address from an earlier run, if it names one. */
function portOf(baseUrl: string | undefined): number | undefined {
  if (baseUrl === undefined) return undefined
  try {
    const port = Number(new URL(baseUrl).port)
    return Number.isInteger(port) && port > 0 ? port : undefined
  } catch {
    return undefined
  }
}

export function describeExit(code: number | null, signal: string | null): string {
  return signal ? `signal ${signal}` : `exit code ${String(code)}`
}

/**
 * Starts the sandbox in its own process on a loopback port with the local profile's generated credentials. Returns
 * as soon as the process is spawned: the backend serves its cache meanwhile and `ready` says when requests work.
 */
export async function startLocalSandbox(options: LocalSandboxOptions): Promise<LocalSandbox> {
  adoptLegacyStateFile(options.dataDir)
  const port = await freePort(portOf(options.previousBaseUrl))
  const child: SandboxProcess = (options.launcher ?? nodeSandboxLauncher)()
  child.onSpawn((pid) => {
    if (!options.lowPriority) return
    try {
      // A Paydesk that was itself started at a lower priority hands it down already: never raise it.
      if (getPriority(pid) < SANDBOX_NICENESS) setPriority(pid, SANDBOX_NICENESS)
    } catch (error) {
      // Only slower to start the window; the sandbox itself works the same.
      options.log(
        `Local sandbox: its priority could not be lowered (${(error as NodeJS.ErrnoException).code ?? 'error'})`
      )
    }
  })
  let closing = false
  let exited: { code: number | null; signal: string | null } | undefined
  const exitListeners: ((message: string) => void)[] = []
  let settle: { resolve: (r: LocalSandboxReady) => void; reject: (e: Error) => void } | undefined
  const ready = new Promise<LocalSandboxReady>((resolve, reject) => (settle = { resolve, reject }))
  // A caller that never awaits `ready` must not turn a failed start into an unhandled rejection.
  ready.catch(() => undefined)
  const exitedPromise = new Promise<void>((resolve) => {
    child.onExit((code, signal) => {
      exited = { code, signal }
      resolve()
      const how = describeExit(code, signal)
      settle?.reject(new Error(`the sandbox process ended before it was ready (${how})`))
      if (closing) return
      const message = `its process stopped unexpectedly (${how}); use Restart in the top bar to start it again`
      options.log(`Local sandbox: ${message}`)
      for (const l of exitListeners) l(message)
    })
  })
  child.onMessage((raw) => {
    const parsed = SandboxChildMessage.safeParse(raw)
    if (!parsed.success) return options.log('Local sandbox: ignored a malformed message from its process')
    const m = parsed.data
    if (m.type === 'log') options.log(m.message)
    else if (m.type === 'failed') settle?.reject(new Error(`the sandbox could not start: ${m.message}`))
    else {
      if (m.corruptFileMovedTo !== undefined)
        options.log(`Local sandbox: its state file was unreadable and was moved to ${m.corruptFileMovedTo}`)
      settle?.resolve({
        pid: m.pid,
        ...(m.corruptFileMovedTo !== undefined && { corruptFileMovedTo: m.corruptFileMovedTo })
      })
    }
  })
  const start: SandboxStartMessage = {
    type: 'start',
    port,
    dataFile: localSandboxStateFile(options.dataDir),
    tokenId: options.tokenId,
    clientSecret: options.clientSecret,
    ...(options.generateTransactions !== undefined && { generateTransactions: options.generateTransactions }),
    ...(options.approvalWindowMs !== undefined && { approvalDeferralSeconds: options.approvalWindowMs / 1000 }),
    ...(options.nativeBinding !== undefined && { nativeBinding: options.nativeBinding })
  }
  child.postMessage(start)
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
    ready,
    pid: child.pid,
    onUnexpectedExit: (listener) => void exitListeners.push(listener),
    close: async () => {
      closing = true
      if (exited) return
      child.postMessage({ type: 'close' })
      const timer = setTimeout(() => child.kill(), CLOSE_GRACE_MS)
      await exitedPromise
      clearTimeout(timer)
    }
  }
}
