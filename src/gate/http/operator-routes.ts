/**
 * The operators' API: JSON over HTTP(S) with `Authorization: Bearer <token>`. Every request is authenticated before
 * its body is looked at, every body is read with the zod schemas of src/shared/gate, and every refusal is
 * `{ code, message }`. Whatever changes is logged with the operator's name by the store, in the same transaction.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import {
  GateRules,
  PreApprovalCreateRequest,
  PromptAnswer,
  ReceiverInfo,
  ReceiverInfoPutRequest
} from '../../shared/gate'
import type { Gate } from '../domain/gate'
import { operatorFor } from '../domain/operators'
import type { ReceiverInfoSource } from '../domain/receiver-info'
import type { GateStore } from '../store/store'
import type { EventStreams } from './events-route'
import type { GateMetrics } from './metrics'

declare module 'fastify' {
  interface FastifyRequest {
    operator: string
  }
}

interface OperatorDeps {
  gate: Gate
  store: GateStore
  receiverInfo: ReceiverInfoSource
  streams: EventStreams
  metrics: GateMetrics
}

const refuse = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).send({ code, message })

function read<S extends z.ZodType>(schema: S, req: FastifyRequest, reply: FastifyReply): z.infer<S> | undefined {
  const parsed = schema.safeParse(req.body)
  if (parsed.success) return parsed.data
  const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')
  void refuse(reply, 400, 'INVALID_REQUEST', detail.slice(0, 1000))
  return undefined
}

const ID = /^[A-Za-z0-9:_.-]{1,200}$/

export function operatorRoutes(d: OperatorDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    app.decorateRequest('operator', '')
    app.addHook('onRequest', async (req, reply) => {
      const name = await operatorFor(d.store, req.headers.authorization)
      if (name === null) {
        d.metrics.refusedOperators.inc()
        // Connection: close, so a refused client cannot keep sending a body on this connection.
        reply.header('connection', 'close')
        return refuse(reply, 401, 'UNAUTHORIZED', 'An operator token is required (Authorization: Bearer <token>)')
      }
      req.operator = name
      return undefined
    })

    app.get('/operator/events', async (req, reply) => {
      const header = req.headers['last-event-id']
      await d.streams.serve(reply, typeof header === 'string' ? header : undefined)
    })

    app.get('/operator/prompts', async () => ({ prompts: await d.gate.prompts.list() }))

    app.post<{ Params: { transactionId: string } }>('/operator/prompts/:transactionId', async (req, reply) => {
      if (!ID.test(req.params.transactionId)) return refuse(reply, 404, 'PROMPT_NOT_FOUND', 'No such prompt')
      const body = read(PromptAnswer, req, reply)
      if (!body) return reply
      const outcome = await d.gate.answerPrompt(req.params.transactionId, req.operator, body)
      if (!outcome.ok) {
        const { code, message, missingFields } = outcome
        return reply.code(outcome.status).send({ code, message, ...(missingFields && { missingFields }) })
      }
      return { decision: outcome.decision, sent: outcome.sent }
    })

    app.get('/operator/rules', async () => d.store.getRules())

    app.put('/operator/rules', async (req, reply) => {
      const rules = read(GateRules, req, reply)
      if (!rules) return reply
      await d.store.putRules(rules, `operator:${req.operator}`)
      return rules
    })

    app.get('/operator/pre-approvals', async () => ({ preApprovals: await d.store.listPreApprovals() }))

    app.post('/operator/pre-approvals', async (req, reply) => {
      const p = read(PreApprovalCreateRequest, req, reply)
      if (!p) return reply
      const { preApproval } = await d.store.addPreApproval(p, `operator:${req.operator}`)
      return reply.code(201).send(preApproval)
    })

    // Paydesk's receiver-information editor reads what it edits. The values go to the operator only: never logged.
    app.get<{ Params: { customerId: string } }>('/operator/receiver-info/:customerId', async (req, reply) => {
      if (!ID.test(req.params.customerId)) return refuse(reply, 400, 'INVALID_REQUEST', 'customerId is not an id')
      const found = await d.receiverInfo.get(req.params.customerId)
      if (found === null)
        return refuse(reply, 404, 'RECEIVER_INFO_NOT_FOUND', 'No receiver information is kept for this customer')
      if (found === 'unreadable')
        return refuse(
          reply,
          409,
          'RECEIVER_INFO_UNREADABLE',
          "This customer's receiver information was sealed under another key: write it again"
        )
      reply.header('cache-control', 'no-store')
      return ReceiverInfo.parse(found)
    })

    app.put<{ Params: { customerId: string } }>('/operator/receiver-info/:customerId', async (req, reply) => {
      if (!ID.test(req.params.customerId)) return refuse(reply, 400, 'INVALID_REQUEST', 'customerId is not an id')
      const body = read(ReceiverInfoPutRequest, req, reply)
      if (!body) return reply
      await d.receiverInfo.put(req.params.customerId, body.info, `operator:${req.operator}`)
      return reply.code(204).send()
    })

    app.get<{ Querystring: { after?: string } }>('/operator/log', async (req) => {
      const after = /^\d{1,15}$/.test(req.query.after ?? '') ? Number(req.query.after) : 0
      return { events: await d.store.readLog(after, 500) }
    })
  }
}
