/**
 * The platform's webhook endpoint. Its body is kept as the raw bytes (a content-type parser that hands over the
 * Buffer, whatever the declared type), since the signature covers exactly those bytes; nothing is parsed before the
 * signature verifies (domain/webhook.ts).
 */
import type { FastifyInstance } from 'fastify'
import type { Gate } from '../domain/gate'
import type { GateMetrics } from './metrics'

export function webhookRoute(gate: Gate, metrics: GateMetrics, path: string) {
  return async (app: FastifyInstance): Promise<void> => {
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
    app.post(path, async (req, reply) => {
      const stop = metrics.webhookSeconds.startTimer()
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
      const header = req.headers['x-grid-signature']
      const result = await gate.handleWebhook(raw, typeof header === 'string' ? header : undefined)
      metrics.webhooks.inc({ status: String(result.status) })
      stop()
      return reply.code(result.status).send(result.body)
    })
  }
}
