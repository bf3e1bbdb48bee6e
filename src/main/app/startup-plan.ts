/**
 * Paydesk's start-up order, in one place: what waits for what. Everything starts at once (the Local sandbox's process,
 * the profile's cache, the gates' streams, the orphan scan); what would take main's thread or the service from the
 * window's first screen waits:
 * 1. The profile calls (the profile list first) wait for the Local profile's address and secret to be final: its
 *    sandbox's process spawned, not answering (its state may load for a while). `afterLocalAddressed`.
 *    The Local profile's session opens once its sandbox is started, when its credentials and whether it has a client
 *    are final; its cache opens before that, for the first screen. `sessionOpens`.
 * 2. A session's scheduled polling waits for the window's first screen to be served (QuietCalls: loading the HTTP
 *    client takes main's thread for 0.1–0.5 s) and, for the Local profile, for its sandbox to answer, so a big saved
 *    state loads without the session failing or re-opening meanwhile. A rejection of the latter leaves polling off.
 * 3. A session's background refreshes (customers, accounts) wait for the first screen too.
 * 4. Any poll waits for the service to answer; an empty cache asks for its first page then, first screen or not,
 *    having nothing to show.
 * Domain and infra only receive these promises ("start when this resolves"); none of them decides an order itself.
 */
import type { Handlers } from '../handlers/dispatch'

/** When a profile session may start each kind of work (SessionDeps). */
export interface SessionStart {
  /** The service answers: any poll waits for it. Absent: it does already. */
  serviceReady?: Promise<unknown>
  /** Scheduled polling starts once this resolves; never, if it rejects. */
  pollsAfter: Promise<unknown>
  /** Background refreshes start once this resolves. */
  refreshesAfter: Promise<void>
}

export interface StartupWaits {
  /** The window's first screen has been served (QuietCalls.settled). */
  firstScreen: Promise<void>
  /** The Local profile's address and secret are final (LocalProfile.whenAddressed). */
  localAddressed: () => Promise<void>
  /** The Local sandbox is started: what the Local session is opened with is final (LocalProfile.whenStarted). */
  localStarted: () => Promise<void>
}

export class StartupPlan {
  constructor(private readonly waits: StartupWaits) {}

  /** Resolves when a profile's session may open, its cache already opening: the Local one waits for its sandbox. */
  sessionOpens(isLocal: boolean): Promise<void> {
    return isLocal ? this.waits.localStarted() : Promise.resolve()
  }

  /** What a session waits for, given whether its service is still starting (the Local sandbox loading its state). */
  sessionStart(serviceReady?: Promise<unknown>): SessionStart {
    const { firstScreen } = this.waits
    if (serviceReady === undefined) return { pollsAfter: firstScreen, refreshesAfter: firstScreen }
    return { serviceReady, pollsAfter: Promise.all([firstScreen, serviceReady]), refreshesAfter: firstScreen }
  }

  /** The same handlers, each answering once the Local profile's address and secret are final. */
  afterLocalAddressed<H extends Partial<Handlers>>(handlers: H): H {
    const wrapped: Record<string, (input: never) => Promise<unknown>> = {}
    for (const [name, handler] of Object.entries(handlers) as [string, (input: never) => Promise<unknown>][]) {
      wrapped[name] = async (input) => {
        await this.waits.localAddressed()
        return handler(input)
      }
    }
    return wrapped as H
  }
}
