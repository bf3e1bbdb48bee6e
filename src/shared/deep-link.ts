import { z } from 'zod'
import { CustomerId, TransactionId } from './api/ids'
import { ProfileId } from './profile'

/** The scheme Paydesk registers with the OS. */
export const DEEP_LINK_SCHEME = 'paydesk'

/** Longer than any real link (a kind, an id and a profile id): anything past this is refused unread. */
export const DEEP_LINK_MAX_LENGTH = 300

/**
 * The identifier part of an id in a link. Stricter than the id schemas (which allow any non-blank text): a link comes
 * from outside Paydesk, so no dots, slashes, percent signs or anything else a path could be built from.
 */
const LinkIdPart = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/

function linkSafe<T extends z.ZodType<string, string>>(schema: T, prefix: string) {
  return schema.refine((id) => LinkIdPart.test(id.slice(prefix.length + 1)), {
    error: `A ${prefix} id in a link may only hold letters, digits, "-" and "_"`
  })
}

/** What a link opens: one view, never an action. */
const DeepLink = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('transactions'),
    id: linkSafe(TransactionId, 'Transaction'),
    profileId: ProfileId.optional()
  }),
  z.strictObject({
    kind: z.literal('approvals'),
    id: linkSafe(TransactionId, 'Transaction'),
    profileId: ProfileId.optional()
  }),
  z.strictObject({
    kind: z.literal('customers'),
    id: linkSafe(CustomerId, 'Customer'),
    profileId: ProfileId.optional()
  })
])
type DeepLink = z.infer<typeof DeepLink>

/**
 * The whole text of a link, read by pattern rather than by a URL parser: a parser would resolve `..`, decode
 * separators and accept credentials or ports, all of which a link to one item never needs. One query parameter at
 * most (`profile`), no fragment, no trailing slash.
 */
const DeepLinkText = z
  .string()
  .max(DEEP_LINK_MAX_LENGTH, `A Paydesk link is at most ${DEEP_LINK_MAX_LENGTH} characters`)
  // The scheme is case-insensitive (RFC 3986); nothing else is.
  .transform((s) => (/^paydesk:/i.test(s) ? `paydesk:${s.slice('paydesk:'.length)}` : s))
  .pipe(
    z
      .string()
      .regex(
        /^paydesk:\/\/(transactions|approvals|customers)\/([^/?#\\\s]+)(?:\?profile=([^&#/?=\\\s]+))?$/,
        'Not a Paydesk link: expected paydesk://transactions|approvals|customers/<id>[?profile=<id>]'
      )
  )

type DeepLinkResult = { ok: true; link: DeepLink } | { ok: false; reason: string }

/** Decodes one percent-encoded part once; a second layer of encoding then fails the id pattern. */
function decodeOnce(part: string): string | null {
  try {
    return decodeURIComponent(part)
  } catch {
    return null
  }
}

/** Parses a `paydesk://` link. Never throws: anything that is not exactly one of the three forms is refused. */
export function parseDeepLink(raw: unknown): DeepLinkResult {
  const text = DeepLinkText.safeParse(raw)
  if (!text.success) return { ok: false, reason: text.error.issues[0]?.message ?? 'Not a Paydesk link' }
  const match = /^paydesk:\/\/([^/]+)\/([^?]+)(?:\?profile=(.+))?$/.exec(text.data)!
  const kind = match[1]!
  const id = decodeOnce(match[2]!)
  const profile = match[3] === undefined ? undefined : decodeOnce(match[3])
  if (id === null || profile === null) return { ok: false, reason: 'The link is not validly percent-encoded' }
  const link = DeepLink.safeParse({
    kind,
    id,
    ...(profile !== undefined && { profileId: profile })
  })
  if (!link.success) return { ok: false, reason: link.error.issues[0]?.message ?? 'Not a Paydesk link' }
  return { ok: true, link: link.data }
}

/** The link that opens an item (the inverse of parseDeepLink), for "Copy link" and tests. */
export function formatDeepLink(link: DeepLink): string {
  const query = link.profileId === undefined ? '' : `?profile=${link.profileId}`
  return `${DEEP_LINK_SCHEME}://${link.kind}/${link.id}${query}`
}
