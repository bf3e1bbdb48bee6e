import { z } from 'zod'

/** Resource name prefixes of system-generated identifiers (`<ResourceName>:<identifier>`, spec 2.1). */
export const ID_PREFIXES = {
  customer: 'Customer',
  externalAccount: 'ExternalAccount',
  internalAccount: 'InternalAccount',
  transaction: 'Transaction',
  quote: 'Quote'
} as const
type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES]

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** True when `value` is `<prefix>:<non-empty identifier without whitespace>`. */
export function hasIdPrefix(prefix: string, value: unknown): boolean {
  return typeof value === 'string' && new RegExp(`^${escapeRegExp(prefix)}:\\S+$`).test(value)
}

/**
 * An identifier `<prefix>:<identifier>`; the identifier part must be non-empty and contain no whitespace.
 * Typed as a template literal so a CustomerId cannot be passed where a QuoteId is expected.
 */
export function prefixedId<const P extends string>(prefix: P) {
  return z
    .string({ error: `${prefix} id must be a string like "${prefix}:<identifier>"` })
    .regex(new RegExp(`^${escapeRegExp(prefix)}:\\S+$`), {
      error: `${prefix} id must look like "${prefix}:<identifier>" (prefix "${prefix}:" followed by a non-empty identifier)`
    }) as unknown as z.ZodType<`${P}:${string}`, string>
}

/**
 * An identifier as a server sends it. The spec's ids carry a `<prefix>:`, but the published OpenAPI types every id as
 * a plain string (Prism's dynamic mode, and possibly the real service, send them bare), so a read keeps a bare id as it
 * came, the way `openEnum` keeps an unknown value. An id naming another kind (`Quote:` where a customer id belongs) is
 * still refused: that is a mix-up, not a dialect. Requests keep the strict `prefixedId`.
 */
export function responseId(prefix: IdPrefix) {
  const others = Object.values(ID_PREFIXES).filter((p) => p !== prefix)
  return z
    .string({ error: `${prefix} id must be a string` })
    .min(1, { error: `${prefix} id must not be empty` })
    .refine((id) => !others.some((other) => id.startsWith(`${other}:`)), {
      error: `${prefix} id must not name another kind of resource`
    })
}

export const CustomerId = prefixedId(ID_PREFIXES.customer)
export type CustomerId = z.infer<typeof CustomerId>
export const ExternalAccountId = prefixedId(ID_PREFIXES.externalAccount)
export type ExternalAccountId = z.infer<typeof ExternalAccountId>
export const InternalAccountId = prefixedId(ID_PREFIXES.internalAccount)
export type InternalAccountId = z.infer<typeof InternalAccountId>
export const TransactionId = prefixedId(ID_PREFIXES.transaction)
export type TransactionId = z.infer<typeof TransactionId>
export const QuoteId = prefixedId(ID_PREFIXES.quote)
export type QuoteId = z.infer<typeof QuoteId>

/** Ids of responses (see `responseId`). */
export const CustomerRef = responseId(ID_PREFIXES.customer)
export const ExternalAccountRef = responseId(ID_PREFIXES.externalAccount)
export const InternalAccountRef = responseId(ID_PREFIXES.internalAccount)
export const TransactionRef = responseId(ID_PREFIXES.transaction)
export const QuoteRef = responseId(ID_PREFIXES.quote)

/**
 * A UMA address such as `$alice@uma.example.com` (the customer's `umaAddress`). The spec does not define the format;
 * this follows the reference's examples: `$`, a user part, `@`, and a domain with a dot.
 */
export const UmaAddress = z
  .string({ error: 'UMA address must be a string like "$alice@uma.example.com"' })
  .regex(/^\$[^\s@$]+@[^\s@]+\.[^\s@]+$/, {
    error: 'UMA address must look like "$user@domain.tld" (a "$", a user name, "@" and a domain)'
  })
export type UmaAddress = z.infer<typeof UmaAddress>
