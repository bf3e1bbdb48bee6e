import type { Exchange, Violation } from './proxy-violations'

/**
 * Differences between the spec (which the Local sandbox honours) and the published OpenAPI that `prism proxy` may
 * report during the operator session of `sandbox-behind-prism-proxy.test.ts`, each with its reason. Anything else it
 * reports fails the test. Listed in docs/real-service.md.
 */
export const PROXY_ALLOW_LIST: ReadonlyArray<{
  /** `METHOD /path` with `{param}` for path parameters, as the published document names the operation. */
  operation: RegExp
  /** Where the violation is: the start of Prism's `location` (e.g. `response.body.data`). */
  location: string
  reason: string
}> = []

export function allowed(exchange: Exchange, violation: Violation): boolean {
  const where = violation.location.join('.')
  const operation = `${exchange.method} ${exchange.path.split('?')[0]}`
  return PROXY_ALLOW_LIST.some((entry) => entry.operation.test(operation) && where.startsWith(entry.location))
}
