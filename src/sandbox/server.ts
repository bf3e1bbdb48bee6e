/**
 * The local sandbox: a Payments API server (spec ../shared/spec/payments-api.md) over node:http, embedded in-process by
 * Paydesk and used by every test. `createSandboxServer` starts it on 127.0.0.1 and resolves once it is listening.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Clock, iso } from './state/clock'
import { createEngine, type Engine } from './engine/engine'
import { ApiError } from './state/sandbox-errors'
import { DisabledFaults, FaultController, injectedError } from './http/faults'
import {
  checkBasicAuth,
  DEFAULT_MAX_BODY_BYTES,
  errorReply,
  queryObject,
  readJsonBody,
  sendReply,
  type Reply
} from './http/http'
import { generateOnce } from './state/generate'
import { oncePerKey } from './http/idempotency'
import { StateFile, type Logger } from './state/persistence'
import { methodNotAllowed, Router, type Route } from './http/router'
import { buildRoutes } from './http/routes'
import { Scheduler } from './state/scheduler'
import { initPlatform, seedSandbox } from './engine/seed'
import { Store } from './state/sandbox-store'
import { ensureSettings, type PlatformSettings } from './state/platform-config'
import { webhookRoutes } from './http/webhook-routes'
import { WebhookDispatcher, type SandboxWebhooks } from './http/webhooks/dispatcher'
import { webhookEvents } from './http/webhooks/events'
import { BASE_PATH, SANDBOX_DEFAULTS } from './state/defaults'
import { MAX_APPROVAL_DEFERRAL_SECONDS, validApprovalDeferral } from './state/timing'

export interface SandboxServerOptions {
  /** 0 (default): a free port. */
  port?: number
  host?: '127.0.0.1'
  /** SQLite state file (a JSON one of the previous format is imported); without it (or with `memory`) nothing is kept. */
  dataFile?: string
  /** Path of the SQLite native addon built for the host's ABI (Electron); default: the package's own. */
  nativeBinding?: string
  memory?: boolean
  tokenId?: string
  clientSecret?: string
  /** Multiplies every simulated delay: 0.01 makes them 100x shorter. */
  timeScale?: number
  /**
   * How long a payment answered 202 waits for approve/reject, in seconds of the service (scaled by timeScale like every
   * delay). Default 5, the published deadline; a longer window is a test/demo setting only (a test that must not race
   * the real 5 s), never what the service does.
   */
  approvalDeferralSeconds?: number
  /** Create demo data on first start (default true). */
  seed?: boolean
  /** Add this many synthetic history transactions once per data file (see generate.ts). */
  generateTransactions?: number
  /** Enable fault injection (the `faults` controller and `POST /__faults`). Never on by default. */
  faults?: boolean
  /** Clock (ms), for tests. */
  now?: () => number
  /** Where messages go (corrupt state file, save failures...). Default: stderr. */
  log?: Logger
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number
}

/** Internals exposed for tests, the benchmark and the embedding app. */
interface SandboxInternals {
  store: Store
  engine: Engine
  scheduler: Scheduler
  clock: Clock
  /** Apply every due time-based transition now. */
  runDue(): number
  /** Resolves when a history generated at start is in the state file (at once without one, or in memory mode). */
  historySaved: Promise<void>
  /** Write the state file now (no-op in memory mode). */
  save(): Promise<void>
  /** Set when the data file was unreadable at start and renamed aside. */
  corruptFileMovedTo?: string
}

export type { SandboxWebhooks }

export interface SandboxServer {
  /** `http://127.0.0.1:<port>/2025-10-13` */
  baseUrl: string
  origin: string
  port: number
  tokenId: string
  clientSecret: string
  faults: FaultController
  webhooks: SandboxWebhooks
  state: SandboxInternals
  close(): Promise<void>
}

export async function createSandboxServer(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const log: Logger = options.log ?? ((m) => process.stderr.write(`${m}\n`))
  const tokenId = options.tokenId ?? SANDBOX_DEFAULTS.tokenId
  const clientSecret = options.clientSecret ?? SANDBOX_DEFAULTS.clientSecret
  if (!tokenId || !clientSecret) throw new Error('tokenId and clientSecret must not be empty')
  const clock = new Clock(options.now ?? Date.now, options.timeScale ?? SANDBOX_DEFAULTS.timeScale)
  const approvalDeferral = options.approvalDeferralSeconds
  if (approvalDeferral !== undefined && !validApprovalDeferral(approvalDeferral))
    throw new Error(
      `approvalDeferralSeconds must be a positive number of seconds up to ${MAX_APPROVAL_DEFERRAL_SECONDS}, got ${approvalDeferral}`
    )
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const faultsEnabled = options.faults === true
  const faults = faultsEnabled ? new FaultController() : new DisabledFaults()

  // ---- state
  let store: Store | undefined
  let jobs: import('./state/scheduler').Job[] = []
  let stateFile: StateFile | undefined
  let corruptFileMovedTo: string | undefined
  const persist = !options.memory && options.dataFile !== undefined
  if (persist) {
    stateFile = new StateFile(
      options.dataFile as string,
      log,
      undefined,
      options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}
    )
    const loaded = stateFile.load(clock.now())
    if (loaded.kind === 'loaded') {
      store = Store.fromPersisted(loaded.state)
      jobs = loaded.state.jobs
      for (const r of store.txAll.items.slice(-1)) clock.observe(r.t)
      for (const r of store.customerIndex.items.slice(-1)) clock.observe(r.t)
    } else if (loaded.kind === 'corrupt') {
      corruptFileMovedTo = loaded.movedTo
    }
  }
  const fresh = store === undefined
  const theStore = store ?? new Store(0, initPlatform(clock.now()))
  const scheduler = new Scheduler(
    clock,
    (err, job) =>
      log(`Local sandbox: job ${job.kind} for ${job.ref} failed: ${err instanceof Error ? err.message : String(err)}`),
    () => {
      theStore.txVersion++
      stateFile?.markDirty()
    }
  )
  const settingsCreated = ensureSettings(theStore, clock.now(), log)
  const webhooks = new WebhookDispatcher(
    () => ({ endpoint: theStore.settings?.webhookEndpoint, keys: (theStore.settings as PlatformSettings).signingKey }),
    clock,
    scheduler,
    log
  )
  const engine = createEngine(
    theStore,
    clock,
    scheduler,
    { approvals: webhooks, ...(approvalDeferral !== undefined && { approvalDeferral }) },
    () => {
      theStore.txVersion++
      stateFile?.markDirty()
    }
  )
  scheduler.load(jobs)
  theStore.events = webhookEvents(webhooks)
  if (fresh) {
    // The demo history answers its own approval webhooks (seed.ts), as no platform is listening at first start.
    if (options.seed !== false) seedSandbox(engine)
    else engine.openPlatformAccounts()
  }
  stateFile?.attach(
    { store: theStore, jobs: () => scheduler.snapshot(), savedAt: () => iso(clock.now()) },
    fresh || stateFile.migrated
  )
  if (settingsCreated) stateFile?.markDirty()
  // A generated history is saved while the server already answers (seconds at 100,000): requests read the store,
  // and the file gets the history, with whatever they changed meanwhile, in one transaction (StateFile).
  let historySaved: Promise<void> = Promise.resolve()
  if (options.generateTransactions && generateOnce(theStore, options.generateTransactions, clock.now(), log)) {
    historySaved = stateFile?.saveInBackground() ?? historySaved
  }
  scheduler.runDue()

  // ---- HTTP
  const router = new Router([
    ...buildRoutes(engine, faultsEnabled ? faults : undefined),
    ...webhookRoutes(engine, webhooks, faultsEnabled)
  ])
  const sockets = new Set<Socket>()

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase()
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.local')
    } catch {
      throw new ApiError(400, 'INVALID_INPUT', 'Malformed request URL')
    }
    if (!checkBasicAuth(req.headers.authorization, tokenId, clientSecret)) {
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        req.headers.authorization
          ? 'Invalid API credentials'
          : 'Missing Authorization header (HTTP Basic with token id and client secret)',
        undefined,
        { 'www-authenticate': 'Basic realm="Payments API sandbox"' }
      )
    }
    const pathname = url.pathname
    if (pathname !== BASE_PATH && !pathname.startsWith(`${BASE_PATH}/`)) {
      throw new ApiError(404, 'NOT_FOUND', `No such endpoint: ${pathname} (the API lives under ${BASE_PATH})`)
    }
    const rel = pathname.slice(BASE_PATH.length) || '/'
    let segments: string[]
    try {
      segments = rel
        .split('/')
        .filter(Boolean)
        .map((s) => decodeURIComponent(s))
    } catch {
      throw new ApiError(400, 'INVALID_INPUT', 'Malformed percent-encoding in the request path')
    }
    const match = router.match(method, segments)
    if (!match) throw new ApiError(404, 'NOT_FOUND', `No such endpoint: ${method} ${rel}`)
    if ('methodNotAllowed' in match) throw methodNotAllowed(rel, match.methodNotAllowed)
    const { route, params } = match

    // Fault injection (before anything takes effect).
    let dropAfterCommit = false
    if (faultsEnabled && !route.admin) {
      const decision = faults.decide(method, route.template, rel)
      if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs))
      if (decision.hold) await decision.hold
      const f = decision.terminal
      if (f?.kind === 'reset') {
        req.socket.destroy()
        return
      }
      const injected = f && injectedError(f)
      if (injected) throw injected
      if (f?.kind === 'commitThenDrop') dropAfterCommit = true
    }

    let body: unknown
    if (route.body !== 'none') {
      body = await readJsonBody(req, maxBodyBytes)
      if (body === undefined && route.body === 'optional') body = {}
    } else {
      // Drain and ignore; an oversize body is still refused.
      await readJsonBody(req, maxBodyBytes).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 413) throw err
      })
    }

    scheduler.runDue()
    const reply = await runRoute(route, method, rel, params, url, body, req.headers['idempotency-key'])
    if (dropAfterCommit) {
      await stateFile?.flush()
      req.socket.destroy()
      return
    }
    sendReply(res, reply)
  }

  function runRoute(
    route: Route,
    method: string,
    rel: string,
    params: Record<string, string>,
    url: URL,
    body: unknown,
    keyHeader: string | string[] | undefined
  ): Reply | Promise<Reply> {
    const asReply = (err: unknown): Reply => {
      if (err instanceof ApiError) return errorReply(err)
      throw err
    }
    const exec = (): Reply | Promise<Reply> => {
      try {
        const reply = route.handler({ method, path: rel, params, query: queryObject(url.searchParams), body })
        return reply instanceof Promise ? reply.catch(asReply) : reply
      } catch (err) {
        return asReply(err)
      }
    }
    if (!route.idempotent) return exec()
    const request = { method, template: route.template, path: rel, search: url.search, body, keyHeader }
    return oncePerKey(
      theStore,
      clock.now(),
      request,
      () => {
        const reply = exec()
        // A stored answer must be the whole of it: idempotent routes never wait on anything.
        if (reply instanceof Promise) throw new Error(`${route.template} is idempotent but asynchronous`)
        return reply
      },
      () => stateFile?.markDirty()
    )
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof ApiError) {
        const reply = errorReply(err)
        if (err.status === 413) reply.headers = { ...(reply.headers ?? {}), connection: 'close' }
        sendReply(res, reply)
        return
      }
      log(
        `Local sandbox: internal error on ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`
      )
      sendReply(res, errorReply(new ApiError(500, 'INTERNAL_ERROR', 'Internal sandbox error')))
    })
  })
  server.keepAliveTimeout = 5_000
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    else socket.destroy()
  })

  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => {
      scheduler.close()
      reject(err)
    }
    server.once('error', onError)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const origin = `http://${host}:${port}`

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= (async () => {
      scheduler.close()
      webhooks.close()
      await webhooks.idle()
      await new Promise<void>((resolve) => {
        // Requests in flight get a moment to finish, then every socket goes.
        const force = setTimeout(() => {
          for (const s of sockets) s.destroy()
        }, 200)
        force.unref()
        server.close(() => {
          clearTimeout(force)
          resolve()
        })
        server.closeIdleConnections()
      })
      await stateFile?.close()
    })()
    return closing
  }

  const internals: SandboxInternals = {
    store: theStore,
    engine,
    scheduler,
    clock,
    runDue: () => scheduler.runDue(),
    historySaved,
    save: async () => {
      stateFile?.markDirty()
      await stateFile?.flush()
    },
    ...(corruptFileMovedTo !== undefined ? { corruptFileMovedTo } : {})
  }

  return {
    baseUrl: `${origin}${BASE_PATH}`,
    origin,
    port,
    tokenId,
    clientSecret,
    faults,
    webhooks: {
      publicKeyPem: (theStore.settings as PlatformSettings).signingKey.publicKeyPem,
      deliveries: () => webhooks.deliveries(),
      idle: () => webhooks.idle()
    },
    state: internals,
    close
  }
}
