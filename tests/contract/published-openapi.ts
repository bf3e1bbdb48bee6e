import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import Ajv, { type ErrorObject } from 'ajv'
import { parse } from 'yaml'

/** The real service's published OpenAPI document, vendored unchanged from the shared reference (2026-04-28 revision). */
export const PUBLISHED_OPENAPI_PATH = fileURLToPath(new URL('published-openapi.yaml', import.meta.url))

const DOC_ID = 'published-openapi'

/**
 * Validates a body against one schema of the published OpenAPI document. OpenAPI 3.0 schemas are JSON Schema plus a
 * few keywords (example, nullable, discriminator...) that ajv is told to ignore; oneOf/allOf/required/enum/pattern are
 * checked as the real service's validator would.
 */
export function publishedValidator(): (schemaName: string, body: unknown) => string[] {
  const doc = parse(readFileSync(PUBLISHED_OPENAPI_PATH, 'utf8')) as Record<string, unknown>
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false })
  ajv.addSchema({ $id: DOC_ID, components: doc['components'] })
  return (schemaName, body) => {
    const validate = ajv.getSchema(`${DOC_ID}#/components/schemas/${schemaName}`)
    if (!validate) throw new Error(`no schema ${schemaName} in the published OpenAPI`)
    return validate(body) ? [] : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath} ${e.message}`)
  }
}

/**
 * The response statuses the published document declares for an operation, by method and a request path (no base,
 * query allowed), matching its path templates; undefined for a path it does not have.
 */
export function publishedStatuses(): (method: string, path: string) => string[] | undefined {
  const doc = parse(readFileSync(PUBLISHED_OPENAPI_PATH, 'utf8')) as {
    paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>
  }
  // Literal segments first, so /customers/external-accounts is not taken for /customers/{customerId}.
  const patterns = Object.keys(doc.paths)
    .sort((a, b) => a.split('{').length - b.split('{').length)
    .map((t) => ({ t, re: new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
  return (method, path) => {
    const bare = path.split('?')[0] ?? ''
    const m = method.toLowerCase()
    const hit = patterns.find((p) => p.re.test(bare) && doc.paths[p.t]?.[m] !== undefined)
    const responses = hit ? doc.paths[hit.t]?.[m]?.responses : undefined
    return responses ? Object.keys(responses) : undefined
  }
}
