import { z } from 'zod'

/**
 * An integer query parameter: a number from a typed client, or a string of digits from URLSearchParams.
 * Rejects "", "1.5", "1e2" and anything outside [min, max].
 */
export function queryInt(what: string, min: number, max: number) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^-?[0-9]+$/)
          .transform(Number)
      ],
      {
        error: `${what} must be a whole number from ${min} to ${max}`
      }
    )
    .pipe(
      z
        .number()
        .int({ error: `${what} must be a whole number from ${min} to ${max}` })
        .min(min, { error: `${what} must be at least ${min}` })
        .max(max, { error: `${what} must be at most ${max}` })
    )
}

/** A boolean query parameter: true/false, or the strings "true"/"false". */
export function queryBoolean(what: string) {
  return z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')], {
    error: `${what} must be true or false`
  })
}

const DEFAULT_PAGE_SIZE = 20
const MAX_PAGE_SIZE = 100

/** Page size of list endpoints: 1..100, default 20 (spec 8). */
export const QueryLimit = queryInt('limit', 1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE)

/** The opaque cursor of a previous response. */
export const QueryCursor = z.string().min(1, { error: 'cursor must not be empty' })

/** Paging parameters shared by list endpoints. */
export const PageQuery = z.strictObject({
  limit: QueryLimit,
  cursor: QueryCursor.optional()
})
export type PageQuery = z.infer<typeof PageQuery>

/**
 * Paged list response: `{ data, hasMore, nextCursor (only when hasMore), totalCount }`. Only `data` decides whether the
 * page is readable: a bad or missing envelope member never drops the page's items. A `totalCount` that is not a
 * non-negative integer is left out, a `nextCursor` that is not a non-empty string is left out, and a `hasMore` that is
 * not a boolean (or missing, as from a service that does not page the list) reads as false, which ends the walk.
 */
export function pagedList<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    hasMore: z.boolean().catch(false),
    nextCursor: z.string().min(1).optional().catch(undefined),
    totalCount: z.number().int().min(0).optional().catch(undefined)
  })
}

/**
 * A paged list whose items are read one by one afterwards (`readItems`), so one item the schema rejects does not
 * reject the whole page.
 */
export const PagedEnvelope = pagedList(z.unknown())

/**
 * Parses each item on its own: the ones that pass, and the ids (when they have a string id) of the ones that do not.
 * The item schemas stay as tolerant as they are (unknown fields and enum values pass).
 */
export function readItems<T extends z.ZodType>(
  item: T,
  raw: readonly unknown[]
): { items: z.output<T>[]; rejected: Array<{ id: string | undefined; raw: unknown }> } {
  const items: z.output<T>[] = []
  const rejected: Array<{ id: string | undefined; raw: unknown }> = []
  for (const r of raw) {
    const parsed = item.safeParse(r)
    if (parsed.success) items.push(parsed.data)
    else {
      const id = r !== null && typeof r === 'object' ? (r as { id?: unknown }).id : undefined
      rejected.push({ id: typeof id === 'string' ? id : undefined, raw: r })
    }
  }
  return { items, rejected }
}

/** Unpaged list response: `{ data }` (platform accounts, discoveries). */
export function dataList<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item) })
}

/** An unpaged list whose items are read one by one afterwards (`readItems`), like `PagedEnvelope`. */
export const UnpagedEnvelope = dataList(z.unknown())
