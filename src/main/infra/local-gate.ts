/**
 * The Local profile's approval gate (src/gate), in a process of its own beside the Local sandbox, so that `npm start`
 * shows the real approval protocol with nothing to set up: the sandbox signs its approval webhook, the gate answers it
 * (a prompt for Paydesk's operator by default), and Paydesk follows the gate's stream with its operator token.
 *
 * The gate keeps its own SQLite file in the Local profile's data folder; its receiver-information key and Paydesk's
 * operator token are generated once and kept in the keychain; every secret reaches the process over its IPC channel.
 * A gate process that dies is told (`onExit`) and started again, on the same port when it is free.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { GateChildMessage, type GateStartMessage } from '../../shared/gate-process'
import { AppError } from './app-error'
import type { SecretStore } from './keychain'
import { describeExit, freePort, localGateTiming } from './local-sandbox'
import { nodeSandboxLauncher, type SandboxLauncher, type SandboxProcess } from './child-launcher'

/** Keychain accounts (under the Local profile's prefix, so the orphan scan knows them). */
export const LOCAL_GATE_TOKEN_ACCOUNT = 'profile:local:local-gate-operator-token'
export const LOCAL_GATE_KEY_ACCOUNT = 'profile:local:local-gate-receiver-key'
/** The operator Paydesk is in the Local gate's log. */
const LOCAL_GATE_OPERATOR = 'Paydesk Local'

/** `<dataDir>/local-gate/gate.db` */
function localGateDatabase(dataDir: string): string {
  return path.join(dataDir, 'local-gate', 'gate.db')
}

/**
 * What the Local platform knows about its demo customers (its "own customer data", by platformCustomerId), so a rule's
 * approval can answer the fields the sandbox's senders ask for. Not the service's customer record: the service asks
 * precisely for what that record lacks (several demo customers have no birth date there).
 */
const LOCAL_DEMO_RECEIVER_INFO: Readonly<Record<string, Record<string, string>>> = {
  'cust-jane-smith': { FULL_NAME: 'Jane Smith', BIRTH_DATE: '1990-01-15', NATIONALITY: 'US' },
  'cust-carlos-garcia': { FULL_NAME: 'Carlos García', BIRTH_DATE: '1988-05-22', NATIONALITY: 'MX' },
  'cust-amelia-hughes': { FULL_NAME: 'Amelia Hughes', BIRTH_DATE: '1979-11-02', NATIONALITY: 'GB' },
  'cust-olu-adeyemi': { FULL_NAME: 'Olu Adeyemi', BIRTH_DATE: '1986-07-14', NATIONALITY: 'NG' },
  'cust-marta-kowalski': { FULL_NAME: 'Marta Kowalski', BIRTH_DATE: '1992-03-08', NATIONALITY: 'PL' },
  'cust-ivan-petrov': { FULL_NAME: 'Ivan Petrov', BIRTH_DATE: '1983-12-01', NATIONALITY: 'US' }
}

/** A start that failed 3 times within this long is not tried again: a gate that cannot run must not spin. */
const RESTART_WINDOW_MS = 60_000
const MAX_RESTARTS = 3
const CLOSE_GRACE_MS = 5_000
const CALL_TIMEOUT_MS = 10_000

interface LocalGateOptions {
  dataDir: string
  /** The Local sandbox, ready: where the gate sends approve/reject and KYC calls. */
  sandbox: { baseUrl: string; tokenId: string; clientSecret: string }
  secrets: SecretStore
  launcher?: SandboxLauncher | undefined
  log(message: string): void
  /** Told when the gate's process ends unexpectedly (before it is started again), with why. */
  onExit?(reason: string): void
  nativeBinding?: string
  /** TEST-ONLY: the Local sandbox's stretched approval window (PAYDESK_TEST_APPROVAL_WINDOW_MS); default the real 5 s. */
  approvalWindowMs?: number | undefined
}

export interface LocalGateAccess {
  /** http://127.0.0.1:<port> */
  url: string
  /** Paydesk's operator token (the gate keeps only its hash). */
  token: string
}

const notStarted = (why: string, cause?: unknown): AppError =>
  new AppError('UNREACHABLE', `The Local approval gate could not start: ${why}.`, { cause })

/** The keychain's value for `account`, generated (and kept) the first time. */
async function keptSecret(secrets: SecretStore, account: string, generate: () => string): Promise<string> {
  try {
    const found = await secrets.get(account)
    if (found) return found
    const made = generate()
    await secrets.set(account, made)
    return made
  } catch (error) {
    throw new AppError('KEYCHAIN', 'The Local approval gate’s secrets could not be read from the keychain.', {
      cause: error
    })
  }
}

async function sandboxCall(
  sandbox: LocalGateOptions['sandbox'],
  method: 'GET' | 'PATCH',
  route: string,
  body?: unknown
): Promise<unknown> {
  const auth = Buffer.from(`${sandbox.tokenId}:${sandbox.clientSecret}`).toString('base64')
  const res = await fetch(`${sandbox.baseUrl}${route}`, {
    method,
    headers: { authorization: `Basic ${auth}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS)
  })
  if (!res.ok) throw new Error(`the Local sandbox answered ${method} ${route.split('?')[0]} with ${res.status}`)
  return res.json()
}

/** The demo receiver information for the seeded customers this sandbox has (by their platformCustomerId). */
async function demoReceiverInfo(sandbox: LocalGateOptions['sandbox']): Promise<GateStartMessage['receiverInfo']> {
  const found = await Promise.all(
    Object.entries(LOCAL_DEMO_RECEIVER_INFO).map(async ([platformCustomerId, info]) => {
      const page = (await sandboxCall(
        sandbox,
        'GET',
        `/customers?platformCustomerId=${encodeURIComponent(platformCustomerId)}&limit=1`
      )) as { data?: { id?: unknown }[] }
      const id = page.data?.[0]?.id
      return typeof id === 'string' ? [{ customerId: id, info }] : []
    })
  )
  return found.flat()
}

/** The Local gate: started by `start`, watched, restarted after an unexpected exit, closed with the profile. */
export class LocalGate {
  private run: Promise<LocalGateAccess>
  private child: SandboxProcess | undefined
  private closing = false
  private restarts: number[] = []
  private port = 0

  private constructor(
    private o: LocalGateOptions,
    private message: Omit<GateStartMessage, 'port'>,
    private readonly token: string
  ) {
    this.run = this.launch()
    this.run.catch(() => undefined)
  }

  /** Reads (or makes) the gate's secrets and what it needs from the sandbox, then starts its process. */
  static async start(o: LocalGateOptions): Promise<LocalGate> {
    const token = await keptSecret(
      o.secrets,
      LOCAL_GATE_TOKEN_ACCOUNT,
      () => `gop_${randomBytes(32).toString('base64url')}`
    )
    const receiverInfoKey = await keptSecret(o.secrets, LOCAL_GATE_KEY_ACCOUNT, () =>
      randomBytes(32).toString('base64')
    )
    let webhookPublicKey: string
    let receiverInfo: GateStartMessage['receiverInfo']
    try {
      const key = (await sandboxCall(o.sandbox, 'GET', '/sandbox/webhook-public-key')) as { publicKeyPem?: unknown }
      if (typeof key.publicKeyPem !== 'string') throw new Error('the Local sandbox has no webhook signing key')
      webhookPublicKey = key.publicKeyPem
      receiverInfo = await demoReceiverInfo(o.sandbox)
    } catch (error) {
      throw notStarted(error instanceof Error ? error.message : 'the Local sandbox did not answer', error)
    }
    const database = localGateDatabase(o.dataDir)
    mkdirSync(path.dirname(database), { recursive: true, mode: 0o700 })
    return new LocalGate(
      o,
      {
        type: 'start',
        database,
        webhookPublicKey,
        serviceBaseUrl: o.sandbox.baseUrl,
        serviceTokenId: o.sandbox.tokenId,
        serviceClientSecret: o.sandbox.clientSecret,
        receiverInfoKey,
        operator: { name: LOCAL_GATE_OPERATOR, token },
        receiverInfo,
        ...(o.approvalWindowMs !== undefined && localGateTiming(o.approvalWindowMs)),
        ...(o.nativeBinding !== undefined && { nativeBinding: o.nativeBinding })
      },
      token
    )
  }

  /** Resolves once the gate runs and the sandbox's webhookEndpoint points at it; rejects with why it could not. */
  access(): Promise<LocalGateAccess> {
    return this.run
  }

  /** The gate process's id while one runs. */
  get pid(): number | undefined {
    return this.child?.pid
  }

  private async launch(): Promise<LocalGateAccess> {
    // The port of the last run when it is free: the sandbox's endpoint then stays as it was.
    this.port = await freePort(this.port || undefined)
    if (this.closing) throw notStarted('Paydesk is closing')
    const child = (this.o.launcher ?? nodeSandboxLauncher)('gate')
    this.child = child
    let ready = false
    const url = await new Promise<string>((resolve, reject) => {
      child.onMessage((raw) => {
        const parsed = GateChildMessage.safeParse(raw)
        if (!parsed.success) return this.o.log('Local gate: ignored a malformed message from its process')
        const m = parsed.data
        if (m.type === 'log') this.o.log(m.message)
        else if (m.type === 'failed') reject(notStarted(m.message))
        else {
          ready = true
          resolve(m.url)
        }
      })
      child.onExit((code, signal) => {
        const how = describeExit(code, signal)
        reject(notStarted(`its process ended before it was ready (${how})`))
        if (this.child !== child) return
        this.child = undefined
        // A start that failed is told by `access()`; only a gate that ran is started again.
        if (ready && !this.closing) this.exited(how)
      })
      child.postMessage({ ...this.message, port: this.port } satisfies GateStartMessage)
    })
    try {
      await sandboxCall(this.o.sandbox, 'PATCH', '/config', { webhookEndpoint: `${url}/webhooks` })
    } catch (error) {
      throw notStarted(
        `the Local sandbox could not be pointed at it (${error instanceof Error ? error.message : 'error'})`,
        error
      )
    }
    return { url, token: this.token }
  }

  /** An exit nobody asked for: told, then started again unless it keeps failing. */
  private exited(how: string): void {
    const now = Date.now()
    this.restarts = [...this.restarts.filter((t) => now - t < RESTART_WINDOW_MS), now]
    const giveUp = this.restarts.length > MAX_RESTARTS
    const reason = giveUp
      ? `the Local approval gate stopped unexpectedly (${how}) ${MAX_RESTARTS + 1} times within a minute; restart Paydesk to start it again`
      : `the Local approval gate stopped unexpectedly (${how}); it is being started again`
    this.o.log(`Local gate: ${reason}`)
    if (giveUp) {
      this.run = Promise.reject(notStarted(`its process stopped ${MAX_RESTARTS + 1} times within a minute`))
    } else {
      this.run = this.launch()
    }
    this.run.catch(() => undefined)
    this.o.onExit?.(reason)
  }

  /**
   * The Local sandbox came back on another address (its port was taken while it was stopped): the gate's process is
   * started again with the new one, on its own port when free, and the sandbox's webhookEndpoint pointed at it, so
   * approvals reach the sandbox that runs. Resolves with the new run's access; rejects with why it could not start.
   */
  async repoint(sandboxBaseUrl: string): Promise<LocalGateAccess> {
    if (this.closing) throw notStarted('Paydesk is closing')
    this.o = { ...this.o, sandbox: { ...this.o.sandbox, baseUrl: sandboxBaseUrl } }
    this.message = { ...this.message, serviceBaseUrl: sandboxBaseUrl }
    this.run = this.stopChild().then(() => this.launch())
    this.run.catch(() => undefined)
    return this.run
  }

  async close(): Promise<void> {
    this.closing = true
    await this.stopChild()
  }

  /** Asks the running process to finish what it holds and exit (killed after a grace); its exit is not a crash. */
  private async stopChild(): Promise<void> {
    const child = this.child
    if (!child) return
    this.child = undefined
    const exited = new Promise<void>((resolve) => child.onExit(() => resolve()))
    child.postMessage({ type: 'close' })
    const timer = setTimeout(() => child.kill(), CLOSE_GRACE_MS)
    await exited
    clearTimeout(timer)
  }
}
