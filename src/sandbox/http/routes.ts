/**
 * The route table: every operation of spec section 4 plus the reference extras, one row each (method, path, input
 * schema, engine call). One interpreter turns a row into a route: refuse unknown query parameters, check the path's
 * record exists, validate the input with the shared request schema (src/shared/api), run the engine, reply.
 */
import { CustomerCreateRequest, CustomerListQuery, CustomerUpdateRequest } from '../../shared/api/customer'
import { DiscoveryQuery } from '../../shared/api/discovery'
import {
  ExternalAccountCreateRequest,
  ExternalAccountListQuery,
  ExternalAccountUpdateRequest,
  PlatformExternalAccountQuery
} from '../../shared/api/external-account'
import {
  FundInternalAccountRequest,
  InternalAccountQuery,
  PlatformInternalAccountQuery
} from '../../shared/api/internal-account'
import { QuoteCreateRequest } from '../../shared/api/quote'
import { SandboxReceiveRequest, SandboxSendRequest } from '../../shared/api/sandbox'
import {
  ApprovePaymentRequest,
  RejectPaymentRequest,
  TransactionListQuery,
  TransferOutRequest
} from '../../shared/api/transaction'
import { discover } from '../state/discovery'
import type { Engine } from '../engine/engine'
import { ApiError, invalidInput, REFERENCE_NOT_FOUND } from '../state/sandbox-errors'
import { FaultRuleInput, type FaultController } from './faults'
import { parseWith, type Reply, type SafeParser } from './http'
import type { Page } from '../state/paging'
import type { RequestContext, Route } from './router'

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** Where a route's input comes from: nothing, the query string, or the JSON body (validated, or taken as it is). */
type Input<I> =
  | { from: 'none' }
  | { from: 'query'; schema: SafeParser<I> }
  | { from: 'body'; schema?: SafeParser<I>; what: string; optional?: boolean }

export const none: Input<undefined> = { from: 'none' }
const query = <I>(schema: SafeParser<I>): Input<I> => ({ from: 'query', schema })
const body = <I>(schema: SafeParser<I>, what: string, optional = false): Input<I> => ({
  from: 'body',
  schema,
  what,
  optional
})
/** A body the handler checks itself. */
export const rawBody = (optional: boolean): Input<unknown> => ({ from: 'body', what: 'body', optional })

interface Options<R> {
  /** 201 for a creation, 204 for a deletion; default 200. */
  status?: 201 | 204
  /** A reply other than the result as JSON (the transaction list's cached serialisation). */
  reply?: (result: R) => Reply
  /** Looks up the path's record first, so a missing one answers 404 before its body is validated. */
  found?: (id: string) => unknown
  idempotent?: boolean
  admin?: boolean
}

function noQuery(ctx: RequestContext): void {
  const names = Object.keys(ctx.query)
  if (names.length > 0) {
    throw invalidInput(`Unknown query parameter ${names[0] ?? ''}: this operation takes none`, { parameters: names })
  }
}

/** The generic parse → engine → reply of every row. `id` is the path's one parameter (routes have at most one). */
export function route<I, R>(
  method: Method,
  template: string,
  input: Input<I>,
  run: (input: I, id: string) => R,
  options: Options<R> = {}
): Route {
  const { status = 200, reply, found, idempotent, admin } = options
  return {
    method,
    template,
    body: input.from !== 'body' ? 'none' : input.optional ? 'optional' : 'required',
    ...(idempotent ? { idempotent } : {}),
    ...(admin ? { admin } : {}),
    handler: (ctx) => {
      if (input.from !== 'query' && !admin) noQuery(ctx)
      const id = Object.values(ctx.params)[0] ?? ''
      if (found) found(id)
      let parsed: unknown = undefined
      if (input.from === 'query') parsed = parseWith(input.schema, ctx.query, 'query')
      else if (input.from === 'body') parsed = input.schema ? parseWith(input.schema, ctx.body, input.what) : ctx.body
      const result = run(parsed as I, id)
      if (reply) return reply(result)
      return status === 204 ? { status } : { status, body: result }
    }
  }
}

function paged<T extends { data: unknown }>(page: Page<T>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    data: page.items.map((r) => r.data),
    hasMore: page.hasMore,
    totalCount: page.totalCount
  }
  if (page.hasMore && page.nextCursor) out.nextCursor = page.nextCursor
  return out
}

/**
 * The paged transaction list as JSON text, reusing each transaction's serialisation while nothing has changed
 * (`version` is bumped by every state change), so a 100-item page is a string join rather than a deep stringify.
 */
const txJsonCache = new WeakMap<object, { version: number; json: string }>()
function pagedJson<T extends { data: unknown }>(page: Page<T>, version: number): Reply {
  const parts: string[] = []
  for (const r of page.items) {
    const hit = txJsonCache.get(r)
    if (hit && hit.version === version) parts.push(hit.json)
    else {
      const json = JSON.stringify(r.data)
      txJsonCache.set(r, { version, json })
      parts.push(json)
    }
  }
  const tail = page.hasMore && page.nextCursor ? `,"nextCursor":${JSON.stringify(page.nextCursor)}` : ''
  const json = `{"data":[${parts.join(',')}],"hasMore":${page.hasMore},"totalCount":${page.totalCount}${tail}}`
  return { status: 200, json, body: undefined }
}

/** A platform external account by id; a customer's account is not found under /platform. */
function platformAccount(engine: Engine, id: string): ReturnType<Engine['getExternalAccount']> {
  const a = engine.getExternalAccount(id)
  if (a.customerId !== undefined) {
    throw new ApiError(
      404,
      REFERENCE_NOT_FOUND,
      `Platform external account ${id} not found (it belongs to customer ${a.customerId})`,
      { externalAccountId: id }
    )
  }
  return a
}

function platformAccountRequest(req: ExternalAccountCreateRequest): ExternalAccountCreateRequest {
  if (req.customerId !== undefined) {
    throw invalidInput('A platform external account has no customerId', { field: 'customerId' })
  }
  return req
}

function noBody(raw: unknown): void {
  if (raw !== undefined && !(typeof raw === 'object' && raw !== null && Object.keys(raw).length === 0)) {
    throw invalidInput('Executing a quote takes no body')
  }
}

const CUSTOMER = '/customers/{customerId}'
const EXTERNAL = '/customers/external-accounts'
const EXTERNAL_ONE = `${EXTERNAL}/{externalAccountId}`
const PLATFORM_EXTERNAL = '/platform/external-accounts'
const PLATFORM_EXTERNAL_ONE = `${PLATFORM_EXTERNAL}/{externalAccountId}`
const TRANSACTION = '/transactions/{transactionId}'

export function buildRoutes(engine: Engine, faults: FaultController | undefined): Route[] {
  const e = engine
  const routes: Route[] = [
    // 4.1
    route('GET', '/discoveries', query(DiscoveryQuery), (q) => ({ data: discover(q.country, q.currency) })),
    // 4.15, reference list; 4.16 and reference PATCH/DELETE
    route('POST', '/customers', body(CustomerCreateRequest, 'customer'), e.createCustomer, { status: 201 }),
    route('GET', '/customers', query(CustomerListQuery), (q) => paged(e.listCustomers(q))),
    route('GET', CUSTOMER, none, (_, id) => e.getCustomer(id)),
    route('PATCH', CUSTOMER, body(CustomerUpdateRequest, 'customer update'), (req, id) => e.updateCustomer(id, req), {
      found: e.customer
    }),
    route('DELETE', CUSTOMER, none, (_, id) => e.deleteCustomer(id)),
    // 4.2, 4.3; 4.5, 4.6, 4.7
    route('POST', EXTERNAL, body(ExternalAccountCreateRequest, 'external account'), e.createExternalAccount, {
      status: 201
    }),
    route('GET', EXTERNAL, query(ExternalAccountListQuery), (q) => paged(e.listExternalAccounts(q))),
    route('GET', EXTERNAL_ONE, none, (_, id) => e.getExternalAccount(id)),
    route(
      'PATCH',
      EXTERNAL_ONE,
      body(ExternalAccountUpdateRequest, 'external account update'),
      (req, id) => e.updateExternalAccount(id, req),
      { found: e.externalAccount }
    ),
    route('DELETE', EXTERNAL_ONE, none, (_, id) => e.deleteExternalAccount(id), { status: 204 }),
    // 4.4 and the reference's platform account by id
    route('GET', PLATFORM_EXTERNAL, query(PlatformExternalAccountQuery), (q) =>
      paged(e.listPlatformExternalAccounts(q))
    ),
    route(
      'POST',
      PLATFORM_EXTERNAL,
      body(ExternalAccountCreateRequest, 'external account'),
      (req) => e.createExternalAccount(platformAccountRequest(req)),
      { status: 201 }
    ),
    route('GET', PLATFORM_EXTERNAL_ONE, none, (_, id) => platformAccount(e, id)),
    route('DELETE', PLATFORM_EXTERNAL_ONE, none, (_, id) => e.deleteExternalAccount(id), {
      status: 204,
      found: (id) => platformAccount(e, id)
    }),
    // 4.8 and the reference's customer internal accounts
    route('GET', '/platform/internal-accounts', query(PlatformInternalAccountQuery), (q) => ({
      data: e.listPlatformInternalAccounts(q)
    })),
    route('GET', '/customers/internal-accounts', query(InternalAccountQuery), (q) =>
      paged(e.listCustomerInternalAccounts(q))
    ),
    // 4.9, reference get / approve / reject (4.11)
    route('GET', '/transactions', query(TransactionListQuery), e.listTransactions, {
      reply: (page) => pagedJson(page, e.store.txVersion)
    }),
    route('GET', TRANSACTION, none, (_, id) => e.getTransaction(id)),
    route(
      'POST',
      `${TRANSACTION}/approve`,
      body(ApprovePaymentRequest, 'approval', true),
      (r, id) => e.approve(id, r),
      {
        found: e.transaction
      }
    ),
    route('POST', `${TRANSACTION}/reject`, body(RejectPaymentRequest, 'rejection', true), (r, id) => e.reject(id, r), {
      found: e.transaction
    }),
    // 4.10
    route('POST', '/transfer-out', body(TransferOutRequest, 'transfer-out'), e.transferOut, {
      status: 201,
      idempotent: true
    }),
    // Quotes (reference, minimal)
    route('POST', '/quotes', body(QuoteCreateRequest, 'quote'), e.createQuote, { status: 201, idempotent: true }),
    route('GET', '/quotes/{quoteId}', none, (_, id) => e.getQuote(id)),
    route(
      'POST',
      '/quotes/{quoteId}/execute',
      rawBody(true),
      (raw, id) => {
        noBody(raw)
        e.executeQuote(id, undefined)
        return e.getQuote(id)
      },
      { idempotent: true }
    ),
    // 4.12, 4.13, 4.14
    route(
      'POST',
      '/sandbox/internal-accounts/{accountId}/fund',
      body(FundInternalAccountRequest, 'funding'),
      (req, id) => e.fund(id, req.amount),
      { found: e.internalAccount }
    ),
    route('POST', '/sandbox/send', body(SandboxSendRequest, 'sandbox send'), e.sandboxSend),
    route('POST', '/sandbox/uma/receive', body(SandboxReceiveRequest, 'sandbox receive'), e.sandboxReceive)
  ]
  if (faults) routes.push(...faultRoutes(faults))
  return routes
}

/** The admin routes of fault injection (never subject to it themselves). */
function faultRoutes(faults: FaultController): Route[] {
  const admin = { admin: true }
  return [
    route('GET', '/__faults', none, () => ({ data: faults.list() }), admin),
    route(
      'POST',
      '/__faults',
      rawBody(false),
      (raw) => {
        const rules = raw as { rules?: unknown } | undefined
        const list = rules && typeof rules === 'object' && Array.isArray(rules.rules) ? rules.rules : [rules]
        // Every rule is checked before any is added: a bad one adds none.
        const inputs = list.map((r, i) => parseWith(FaultRuleInput, r, `fault rule ${i}`))
        return { data: inputs.map((r) => faults.add(r)) }
      },
      { ...admin, status: 201 }
    ),
    route('DELETE', '/__faults', none, () => faults.clear(), { ...admin, status: 204 })
  ]
}
