/**
 * The gate's HTTP server (Fastify): the webhook endpoint, the operators' API and stream, /healthz and /metrics. Built
 * from a validated configuration and an injected clock, store and logger, so tests run it for real on a free port.
 * Its stop is graceful: no new connection, every webhook in flight answered, every open prompt given its fallback
 * (and that call sent), streams ended, then the store closed.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import type { AddressInfo } from 'node:net'
import type { GateConfig } from '../config'
import { keyBytes } from '../config'
import { systemClock, type GateClock } from '../domain/clock'
import { Gate } from '../domain/gate'
import { ReceiverInfoSeal, ReceiverInfoSource } from '../domain/receiver-info'
import { publicKeyFrom } from '../domain/signature'
import { ServiceClient } from '../service/client'
import type { GateStore } from '../store/store'
import { EventStreams } from './events-route'
import { GateMetrics } from './metrics'
import { operatorRoutes } from './operator-routes'
import { webhookRoute } from './webhook-route'

interface GateServerOptions {
  config: GateConfig
  store: GateStore
  clock?: GateClock
  /** Where the JSON log lines go (default stdout), or false for none. */
  logStream?: { write(line: string): void } | false
}

export interface GateServer {
  app: FastifyInstance
  gate: Gate
  metrics: GateMetrics
  url: string
  close(): Promise<void>
}

export async function startGateServer(o: GateServerOptions): Promise<GateServer> {
  const { config, store } = o
  const clock = o.clock ?? systemClock
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    logger:
      o.logStream === false
        ? false
        : {
            level: config.logLevel,
            // Headers are not logged by Fastify's serialisers; these stay out should a level or serialiser change.
            redact: ['req.headers.authorization', 'req.headers["x-grid-signature"]'],
            ...(o.logStream && { stream: o.logStream })
          },
    // One line per request (onResponse below) instead of Fastify's two: each is a synchronous write on the hot path.
    disableRequestLogging: true,
    forceCloseConnections: 'idle',
    return503OnClosing: true
  })
  const log = (message: string): void => app.log.warn(message)
  const receiverInfo = new ReceiverInfoSource({
    store,
    seal: new ReceiverInfoSeal(keyBytes(config.receiverInfoKey) as Buffer),
    lookupUrl: config.receiverLookupUrl,
    clock,
    log
  })
  const gate = new Gate({
    store,
    service: new ServiceClient(
      {
        baseUrl: config.serviceBaseUrl.replace(/\/+$/, ''),
        tokenId: config.serviceTokenId,
        clientSecret: config.serviceClientSecret
      },
      clock
    ),
    receiverInfo,
    clock,
    publicKey: publicKeyFrom(config.webhookPublicKey),
    marginMs: config.marginMs,
    deadlineMs: config.serviceDeadlineMs,
    toleranceMs: config.toleranceMs,
    lookupTimeoutMs: config.lookupTimeoutMs,
    log
  })
  const metrics = new GateMetrics(() => gate.prompts.openCount())
  const streams = new EventStreams(store, (n) => metrics.streams.set(n))

  app.setErrorHandler((err: { statusCode?: number; code?: string }, _req, reply) => {
    const status =
      typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500
    if (status === 500) app.log.error({ code: err.code }, 'request failed')
    const message =
      status === 413
        ? `The body is larger than ${config.bodyLimitBytes} bytes`
        : status === 500
          ? 'The gate could not handle this request'
          : 'The request could not be read'
    return reply.code(status).send({ code: status === 413 ? 'BODY_TOO_LARGE' : (err.code ?? 'BAD_REQUEST'), message })
  })
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ code: 'NOT_FOUND', message: 'No such endpoint' }))
  app.get('/healthz', async () => ({ ok: true }))
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', metrics.registry.contentType)
    return metrics.registry.metrics()
  })
  await app.register(webhookRoute(gate, metrics, config.webhookPath))
  await app.register(operatorRoutes({ gate, store, receiverInfo, streams, metrics }))
  let stopping = false
  app.addHook('preClose', async () => {
    stopping = true
    streams.closeAll()
  })
  // Idle connections are closed once, when the stop begins; one whose request was in flight then must close after its
  // answer, or the stop would wait for the client's keep-alive to lapse.
  app.addHook('onSend', async (_req, reply) => {
    if (stopping) reply.header('connection', 'close')
  })
  // Method, URL, status and time only: never headers or bodies (the signature, tokens, receiver information).
  app.addHook('onResponse', async (req, reply) => {
    const line = { method: req.method, url: req.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime }
    req.log.info(line, 'request completed')
  })
  app.addHook('onClose', async () => {
    await gate.stop()
  })

  // Prompts left open by any replica (or by this one before a restart) get their fallback timers before we listen.
  await gate.prompts.start()
  await app.listen({ host: config.host, port: config.port })
  const addr = app.server.address() as AddressInfo
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
  let closing: Promise<void> | undefined
  return {
    app,
    gate,
    metrics,
    url: `http://${host}:${addr.port}`,
    close: () =>
      (closing ??= (async () => {
        await app.close()
        await store.close()
      })())
  }
}
