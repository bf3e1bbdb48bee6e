import { DEEP_LINK_SCHEME, parseDeepLink } from '../../../shared/deep-link'

/** What the window is told to show: the `navigate` event's payload. A link only ever opens a view. */
export interface OpenView {
  route: 'transactions' | 'approvals' | 'customers'
  id: string
  profileId?: string
}

type LinkDecision = { open: OpenView } | { refused: string }

/** The longest text quoted back in a log line: a hostile link must not flood the log. */
const LOGGED_CHARS = 80

/** A link as it may appear in a log: cut short and stripped of control characters. */
export function loggable(raw: unknown): string {
  if (typeof raw !== 'string') return `(${typeof raw})`
  // eslint-disable-next-line no-control-regex
  const clean = raw.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?')
  return clean.length > LOGGED_CHARS ? `${clean.slice(0, LOGGED_CHARS)}… (${raw.length} chars)` : clean
}

/**
 * Decides what a `paydesk://` link opens. The profile named in `?profile=` must be one of this Paydesk's profiles;
 * without it, the item opens in the active profile.
 */
function decideLink(raw: unknown, knownProfileIds: readonly string[]): LinkDecision {
  const parsed = parseDeepLink(raw)
  if (!parsed.ok) return { refused: parsed.reason }
  const { kind, id, profileId } = parsed.link
  if (profileId !== undefined && !knownProfileIds.includes(profileId)) {
    return { refused: `the link names profile “${profileId}”, which this Paydesk does not have` }
  }
  return { open: { route: kind, id, ...(profileId !== undefined && { profileId }) } }
}

/**
 * The links in a command line (Windows and Linux start a second instance with the link as an argument). Only
 * arguments that claim the scheme count; options and paths are ignored.
 */
export function linksInArgv(argv: readonly string[]): string[] {
  const prefix = `${DEEP_LINK_SCHEME}:`
  return argv.filter((arg) => typeof arg === 'string' && arg.slice(0, prefix.length).toLowerCase() === prefix)
}

export interface DeepLinkRouter {
  /** macOS `open-url`, or one link from a command line. */
  openUrl(raw: unknown): LinkDecision
  /** A command line (first launch or `second-instance`): its one link is opened; several at once are refused. */
  openArgv(argv: readonly string[]): LinkDecision | null
}

/**
 * Routes links to the window. Every refusal is logged with the reason and a shortened copy of the link, and nothing
 * else happens: no navigation, no profile switch, no error shown.
 */
export function createDeepLinkRouter(deps: {
  knownProfileIds: () => readonly string[]
  open: (view: OpenView) => void
  log: (m: string) => void
}): DeepLinkRouter {
  const openUrl = (raw: unknown): LinkDecision => {
    let decision: LinkDecision
    try {
      decision = decideLink(raw, deps.knownProfileIds())
    } catch {
      decision = { refused: 'the link could not be read' }
    }
    if ('refused' in decision) {
      deps.log(`deep link refused: ${decision.refused}: ${loggable(raw)}`)
      return decision
    }
    deps.open(decision.open)
    return decision
  }
  return {
    openUrl,
    openArgv(argv) {
      const links = linksInArgv(argv)
      if (links.length === 0) return null
      if (links.length > 1) {
        deps.log(`deep link refused: ${links.length} links in one command line`)
        return { refused: 'more than one link in one command line' }
      }
      return openUrl(links[0])
    }
  }
}
