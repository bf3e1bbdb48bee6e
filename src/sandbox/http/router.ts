/**
 * Matching a request to a route: the route shape the server runs, and the router that finds one by method and path.
 */
import { ApiError } from '../state/sandbox-errors'
import type { Reply } from './http'

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
  /** Synchronous, except the few that wait on something outside (a webhook delivery). */
  handler: (ctx: RequestContext) => Reply | Promise<Reply>
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
