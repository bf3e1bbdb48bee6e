/**
 * The route table: every operation of spec section 4 plus the reference extras, each validating its input with the
 * shared request schema (src/shared/api) before the engine runs.
 */
import { CustomerCreateRequest, CustomerListQuery, CustomerUpdateRequest } from '../shared/api/customer'
import { DiscoveryQuery } from '../shared/api/discovery'
import {
  ExternalAccountCreateRequest,
  ExternalAccountListQuery,
  ExternalAccountUpdateRequest,
  PlatformExternalAccountQuery
} from '../shared/api/external-account'
import {
  FundInternalAccountRequest,
  InternalAccountQuery,
  PlatformInternalAccountQuery
} from '../shared/api/internal-account'
import { QuoteCreateRequest } from '../shared/api/quote'
import { SandboxReceiveRequest, SandboxSendRequest } from '../shared/api/sandbox'
import {
  ApprovePaymentRequest,
  RejectPaymentRequest,
  TransactionListQuery,
  TransferOutRequest
} from '../shared/api/transaction'
import { discover } from './discovery'
import type { Engine } from './engine'
import { ApiError, invalidInput, REFERENCE_NOT_FOUND } from './errors'
import { FaultRuleInput, type FaultController } from './faults'
import { parseWith, type Reply } from './http'
import type { Page } from './paging'

export interface RequestContext {
  method: string
  path: string
  params: Record<string, string>
  query: Record<string, string | string[]>
  body: unknown
}

export interface Route {
  method: string
  /** Path template relative to the base URL, e.g. `/transactions/{transactionId}`. */
  template: string
  /** 'required': a JSON body; 'optional': empty means `{}`; 'none': the body is ignored. */
  body: 'required' | 'optional' | 'none'
  /** Honour Idempotency-Key (reference: transfer-out, quotes, execute). */
  idempotent?: boolean
  /** Admin routes are not subject to fault injection. */
  admin?: boolean
  handler: (ctx: RequestContext) => Reply
}

const ok = (body: unknown): Reply => ({ status: 200, body })
const created = (body: unknown): Reply => ({ status: 201, body })

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

function noQuery(ctx: RequestContext): void {
  const names = Object.keys(ctx.query)
  if (names.length > 0) {
    throw invalidInput(`Unknown query parameter ${names[0] ?? ''}: this operation takes none`, { parameters: names })
  }
}

/** A platform external account by id; a customer's account is not found under /platform. */
function platformAccount(engine: Engine, id: string): ReturnType<Engine['getExternalAccount']> {
  const a = engine.getExternalAccount(id)
  if (a.customerId !== undefined) {
    throw new ApiError(
      404,
      REFERENCE_NOT_FOUND,
      `Platform external account ${id} not found (it belongs to customer ${a.customerId})`,
      {
        externalAccountId: id
      }
    )
  }
  return a
}

export function buildRoutes(engine: Engine, faults: FaultController | undefined): Route[] {
  const routes: Route[] = [
    // 4.1
    {
      method: 'GET',
      template: '/discoveries',
      body: 'none',
      handler: (ctx) => {
        const q = parseWith(DiscoveryQuery, ctx.query, 'query')
        return ok({ data: discover(q.country, q.currency) })
      }
    },
    // 4.15, reference list
    {
      method: 'POST',
      template: '/customers',
      body: 'required',
      handler: (ctx) => {
        noQuery(ctx)
        return created(engine.createCustomer(parseWith(CustomerCreateRequest, ctx.body, 'customer')))
      }
    },
    {
      method: 'GET',
      template: '/customers',
      body: 'none',
      handler: (ctx) => ok(paged(engine.listCustomers(parseWith(CustomerListQuery, ctx.query, 'query'))))
    },
    // 4.16 and reference PATCH/DELETE
    {
      method: 'GET',
      template: '/customers/{customerId}',
      body: 'none',
      handler: (ctx) => {
        noQuery(ctx)
        return ok(engine.getCustomer(ctx.params.customerId as string))
      }
    },
    {
      method: 'PATCH',
      template: '/customers/{customerId}',
      body: 'required',
      handler: (ctx) => {
        noQuery(ctx)
        const id = ctx.params.customerId as string
        engine.customer(id)
        return ok(engine.updateCustomer(id, parseWith(CustomerUpdateRequest, ctx.body, 'customer update')))
      }
    },
    {
      method: 'DELETE',
      template: '/customers/{customerId}',
      body: 'none',
      handler: (ctx) => {
        noQuery(ctx)
        return ok(engine.deleteCustomer(ctx.params.customerId as string))
      }
    },
    // 4.2, 4.3
    {
      method: 'POST',
      template: '/customers/external-accounts',
      body: 'required',
      handler: (ctx) => {
        noQuery(ctx)
        return created(
          engine.createExternalAccount(parseWith(ExternalAccountCreateRequest, ctx.body, 'external account'))
        )
      }
    },
    {
      method: 'GET',
      template: '/customers/external-accounts',
      body: 'none',
      handler: (ctx) => ok(paged(engine.listExternalAccounts(parseWith(ExternalAccountListQuery, ctx.query, 'query'))))
    },
    // 4.5, 4.6, 4.7
    {
      method: 'GET',
      template: '/customers/external-accounts/{externalAccountId}',
      body: 'none',
      handler: (ctx) => {
        noQuery(ctx)
        return ok(engine.getExternalAccount(ctx.params.externalAccountId as string))
      }
    },
    {
      method: 'PATCH',
      template: '/customers/external-accounts/{externalAccountId}',
      body: 'required',
      handler: (ctx) => {
        noQuery(ctx)
        const id = ctx.params.externalAccountId as string
        engine.externalAccount(id)
        return ok(
          engine.updateExternalAccount(id, parseWith(ExternalAccountUpdateRequest, ctx.body, 'external account update'))
        )
      }
    },
    {
      method: 'DELETE',
      template: '/customers/external-accounts/{externalAccountId}',
      body: 'none',
      handler: (ctx) => {
        noQuery(ctx)
        engine.deleteExternalAccount(ctx.params.externalAccountId as string)
        return { status: 204 }
      }
    },
    // 4.4 and the reference's platform account by id
    {
      method: 'GET',
      template: '/platform/external-accounts',
      body: 'none',
      handler: (ctx) => {
        return ok(
          paged(engine.listPlatformExternalAccounts(parseWith(PlatformExternalAccountQuery, ctx.query, 'query')))
        )
      }
    },
    {
      method: 'POST',
      template: '/platform/external-accounts',
      body: 'required',
      handler: (ctx) => {
        noQuery(ctx)
        const req = parseWith(ExternalAccountCreateRequest, ctx.body, 'external account')
        if (req.customerId !== undefined)
          throw invalidInput('A platform external account has no customerId', { field: 'customerId' })
        return created(engine.createExternalAccount(req))
      }
    },
    {
      method: 'GET',
      template: '/platform/external-accounts/{externalAccountId}',
      body: 'none',
      handler: (ctx) => {
        noQuery(ctx)
        return ok(platformAccount(engine, ctx.params.externalAccountId as string))
      }
    },
    {
      method: 'DELETE',
      template: '/platform/external-accounts/{externalAccountId}',
      body: 'none',
      handler: (ctx) => {
        noQuery(ctx)
        const id = ctx.params.externalAccountId as string
        platformAccount(engine, id)
        engine.deleteExternalAccount(id)
        return { status: 204 }
      }
    },
    // 4.8 and the reference's customer internal accounts
    {
      method: 'GET',
      template: '/platform/internal-accounts',
      body: 'none',
      handler: (ctx) => {
        const q = parseWith(PlatformInternalAccountQuery, ctx.query, 'query')
        return ok({ data: engine.listPlatformInternalAccounts(q.currency) })
      }
    },
    {
      method: 'GET',
      template: '/customers/internal-accounts',
      body: 'none',
      handler: (ctx) =>
        ok(paged(engine.listCustomerInternalAccounts(parseWith(InternalAccountQuery, ctx.query, 'query'))))
    },
    // 4.9, reference get / approve / reject
    {
      method: 'GET',
      template: '/transactions',
      body: 'none',
      handler: (ctx) =>
        pagedJson(engine.listTransactions(parseWith(TransactionListQuery, ctx.query, 'query')), engine.store.txVersion)
    },
    {
      method: 'GET',
      template: '/transactions/{transactionId}',
      body: 'none',
      handler: (ctx) => {
        noQuery(ctx)
        return ok(engine.getTransaction(ctx.params.transactionId as string))
      }
    },
    // 4.11
    {
      method: 'POST',
      template: '/transactions/{transactionId}/approve',
      body: 'optional',
      handler: (ctx) => {
        noQuery(ctx)
        const id = ctx.params.transactionId as string
        engine.transaction(id)
        return ok(engine.approve(id, parseWith(ApprovePaymentRequest, ctx.body, 'approval')))
      }
    },
    {
      method: 'POST',
      template: '/transactions/{transactionId}/reject',
      body: 'optional',
      handler: (ctx) => {
        noQuery(ctx)
        const id = ctx.params.transactionId as string
        engine.transaction(id)
        return ok(engine.reject(id, parseWith(RejectPaymentRequest, ctx.body, 'rejection')))
      }
    },
    // 4.10
    {
      method: 'POST',
      template: '/transfer-out',
      body: 'required',
      idempotent: true,
      handler: (ctx) => {
        noQuery(ctx)
        return created(engine.transferOut(parseWith(TransferOutRequest, ctx.body, 'transfer-out')))
      }
    },
    // Quotes (reference, minimal)
    {
      method: 'POST',
      template: '/quotes',
      body: 'required',
      idempotent: true,
      handler: (ctx) => {
        noQuery(ctx)
        return created(engine.createQuote(parseWith(QuoteCreateRequest, ctx.body, 'quote')))
      }
    },
    {
      method: 'GET',
      template: '/quotes/{quoteId}',
      body: 'none',
      handler: (ctx) => {
        noQuery(ctx)
        return ok(engine.getQuote(ctx.params.quoteId as string))
      }
    },
    {
      method: 'POST',
      template: '/quotes/{quoteId}/execute',
      body: 'optional',
      idempotent: true,
      handler: (ctx) => {
        noQuery(ctx)
        if (
          ctx.body !== undefined &&
          !(typeof ctx.body === 'object' && ctx.body !== null && Object.keys(ctx.body).length === 0)
        ) {
          throw invalidInput('Executing a quote takes no body')
        }
        const id = ctx.params.quoteId as string
        engine.executeQuote(id, undefined)
        return ok(engine.getQuote(id))
      }
    },
    // 4.12, 4.13, 4.14
    {
      method: 'POST',
      template: '/sandbox/internal-accounts/{accountId}/fund',
      body: 'required',
      handler: (ctx) => {
        noQuery(ctx)
        const id = ctx.params.accountId as string
        engine.internalAccount(id)
        const req = parseWith(FundInternalAccountRequest, ctx.body, 'funding')
        return ok(engine.fund(id, req.amount))
      }
    },
    {
      method: 'POST',
      template: '/sandbox/send',
      body: 'required',
      handler: (ctx) => {
        noQuery(ctx)
        return ok(engine.sandboxSend(parseWith(SandboxSendRequest, ctx.body, 'sandbox send')))
      }
    },
    {
      method: 'POST',
      template: '/sandbox/uma/receive',
      body: 'required',
      handler: (ctx) => {
        noQuery(ctx)
        return ok(engine.sandboxReceive(parseWith(SandboxReceiveRequest, ctx.body, 'sandbox receive')))
      }
    }
  ]

  if (faults) {
    routes.push(
      {
        method: 'GET',
        template: '/__faults',
        body: 'none',
        admin: true,
        handler: () => ok({ data: faults.list() })
      },
      {
        method: 'POST',
        template: '/__faults',
        body: 'required',
        admin: true,
        handler: (ctx) => {
          const raw = ctx.body as { rules?: unknown } | undefined
          const list = raw && typeof raw === 'object' && Array.isArray(raw.rules) ? raw.rules : [raw]
          const inputs = list.map((r, i) => parseWith(FaultRuleInput, r, `fault rule ${i}`))
          const added = inputs.map((r) => faults.add(r))
          return created({ data: added })
        }
      },
      {
        method: 'DELETE',
        template: '/__faults',
        body: 'none',
        admin: true,
        handler: () => {
          faults.clear()
          return { status: 204 }
        }
      }
    )
  }
  return routes
}

interface CompiledRoute {
  route: Route
  parts: string[]
  statics: number
}

/** Matches request paths to routes; static segments win over parameters (`/customers/external-accounts`). */
export class Router {
  private readonly compiled: CompiledRoute[]

  constructor(routes: Route[]) {
    this.compiled = routes.map((route) => {
      const parts = route.template.split('/').filter(Boolean)
      return { route, parts, statics: parts.filter((p) => !p.startsWith('{')).length }
    })
    this.compiled.sort((a, b) => b.statics - a.statics)
  }

  /**
   * The route and its parameters; `methodNotAllowed` lists the allowed methods when the path exists under another
   * method; undefined when no route has this path.
   */
  match(
    method: string,
    segments: string[]
  ): { route: Route; params: Record<string, string> } | { methodNotAllowed: string[] } | undefined {
    const allowed: string[] = []
    let best: { route: Route; params: Record<string, string>; statics: number } | undefined
    for (const c of this.compiled) {
      if (c.parts.length !== segments.length) continue
      const params: Record<string, string> = {}
      let okMatch = true
      for (let i = 0; i < c.parts.length; i++) {
        const p = c.parts[i] as string
        const s = segments[i] as string
        if (p.startsWith('{')) {
          if (s.length === 0) {
            okMatch = false
            break
          }
          params[p.slice(1, -1)] = s
        } else if (p !== s) {
          okMatch = false
          break
        }
      }
      if (!okMatch) continue
      if (c.route.method !== method) {
        if (!best || c.statics >= best.statics) allowed.push(c.route.method)
        continue
      }
      if (!best || c.statics > best.statics) best = { route: c.route, params, statics: c.statics }
    }
    if (best) return { route: best.route, params: best.params }
    if (allowed.length > 0) return { methodNotAllowed: [...new Set(allowed)] }
    return undefined
  }
}

export function methodNotAllowed(path: string, allowed: string[]): ApiError {
  return new ApiError(
    405,
    'METHOD_NOT_ALLOWED',
    `${path} does not accept this method (allowed: ${allowed.join(', ')})`,
    { allowed },
    {
      allow: allowed.join(', ')
    }
  )
}
