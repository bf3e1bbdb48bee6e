import { z } from 'zod'
import { Decision, Prompt, type GateEvent } from '../../../shared/gate'
import type { GateLink, GateLinkState } from '../../../shared/ipc/channels/gate'
import { LOCAL_PROFILE_ID } from '../../../shared/profile'
import { AppError } from '../../infra/app-error'
import { decisionMade, decisionNotSent, lowerFirst, promptArrived } from '../notifications/gate-wording'
import type { ProfileNotification } from '../notifications/wording'
import type { AppNotification } from '../notifications/batch'
import { gateTokenAccount, type SecretStore } from '../../infra/keychain'
import type { ProfileStore } from '../profiles'
import type { Emit } from '../../infra/emit'
import { GateClient, type GateClientOptions } from '../../infra/gate/gate-client'
import { readFrom, type ReadPositions } from './gate-position'
import { GateFollower, type FollowerDeps } from '../../infra/gate/gate-stream'

/**
 * Every profile's link to its approval gate, active or not: one stream follower per profile that has a gate, so the
 * gate's prompts and decisions reach the operator (events tagged with the profile, native notifications) whichever
 * profile is on screen. A remote profile's gate is the URL kept with the profile and the operator token kept in the OS
 * keychain; the Local profile's is the one Paydesk runs itself (`resolveManaged`).
 */

export type ManagedGate = { url: string; token: string; managed: boolean }

interface GateLinksDeps {
  profiles: ProfileStore
  secrets: SecretStore
  /** The gate Paydesk runs for a profile (the Local one), or null when it runs none for it. Rejects with why not. */
  resolveManaged(profileId: string): Promise<ManagedGate | null>
  emit: Emit
  notify(notification: AppNotification): void
  /** The customer's name when the profile's cache knows it (notifications say whose payment it is). */
  customerName(profileId: string, customerId: string): string | null
  log(message: string): void
  clientOptions?: Partial<GateClientOptions>
  backoff?: FollowerDeps['backoff']
  /** Where each remote gate's log was last read; absent: every start follows from the log's end. */
  positions?: ReadPositions
}

const PromptList = z.object({ prompts: z.array(Prompt) })
/** Prompts remembered per profile, to word the decision that ends them (a decision after a 202 names no amount). */
const REMEMBERED_PROMPTS = 500

interface Link {
  url: string
  managed: boolean
  client: GateClient
  follower: GateFollower
  state: GateLinkState
  message: string | null
  prompts: Map<string, Prompt>
  count: number | undefined
  counting: Promise<void>
}

const NO_GATE =
  'Approvals need an approval gate: the service asks for them only through a webhook to your platform’s server. ' +
  'Run one with `npm run gate` on the platform’s side (docs/gate.md), add an operator with ' +
  '`npm run gate -- operator add NAME`, and connect it here with its URL and that token.'

export class GateLinks {
  private readonly links = new Map<string, Link>()
  /** Why a profile has no link (the Local gate failed to start), for `link()`. */
  private readonly why = new Map<string, string>()
  private readonly opening = new Map<string, Promise<void>>()
  /** Profiles whose own gate (Paydesk's, the Local one) is being started or started again. */
  private readonly starting = new Set<string>()
  private closed = false

  constructor(private readonly d: GateLinksDeps) {}

  /** Follows every profile that has a gate. */
  start(): void {
    for (const p of this.d.profiles.all()) void this.reopen(p.id)
  }

  link(profileId: string): GateLink {
    const l = this.links.get(profileId)
    const lastSeq = l?.follower.lastSeq ?? 0
    if (!l && this.starting.has(profileId))
      return {
        profileId,
        state: 'connecting',
        url: null,
        managed: true,
        lastSeq,
        lastEventAt: null,
        message: 'The Local approval gate is starting.'
      }
    return {
      profileId,
      state: l?.state ?? 'none',
      url: l?.url ?? null,
      managed: l?.managed ?? profileId === LOCAL_PROFILE_ID,
      lastSeq,
      lastEventAt: l?.follower.lastEventAt ?? null,
      message: l ? l.message : (this.why.get(profileId) ?? NO_GATE)
    }
  }

  /** Waits for a profile's link to be opened (after start, connect or a Local gate restart). */
  async opened(profileId: string): Promise<void> {
    await this.opening.get(profileId)
  }

  /** The client of a profile's gate, for a command; a clear refusal when it has none. */
  client(profileId: string): GateClient {
    const l = this.links.get(profileId)
    if (!l) throw new AppError('NOT_FOUND', this.link(profileId).message ?? NO_GATE)
    return l.client
  }

  /** Checks the token against the gate, then keeps it (keychain) and the URL (profile): nothing is saved on a refusal. */
  async connect(profileId: string, url: string, token: string): Promise<GateLink> {
    const profile = this.d.profiles.get(profileId)
    if (profile.environment === 'local')
      throw new AppError('INVALID_INPUT', 'The Local sandbox profile runs its own approval gate; nothing to connect.')
    const probe = new GateClient({ ...this.d.clientOptions, url, token })
    try {
      await probe.call('GET', '/operator/prompts', PromptList)
    } finally {
      await probe.close()
    }
    await this.d.secrets.set(gateTokenAccount(profileId), token)
    // A gate linked anew is followed from now: no summary of its history.
    await this.d.positions?.forget(profileId)
    try {
      await this.d.profiles.setGateUrl(profileId, url)
    } catch (error) {
      await this.d.secrets.delete(gateTokenAccount(profileId)).catch(() => undefined)
      throw error
    }
    await this.reopen(profileId)
    return this.link(profileId)
  }

  /** Forgets a profile's gate: its URL and its token. */
  async disconnect(profileId: string): Promise<GateLink> {
    const profile = this.d.profiles.get(profileId)
    if (profile.environment === 'local')
      throw new AppError('INVALID_INPUT', 'The Local sandbox profile’s gate is Paydesk’s own; it cannot be unlinked.')
    await this.drop(profileId)
    await this.d.positions?.forget(profileId)
    await this.d.secrets.delete(gateTokenAccount(profileId))
    await this.d.profiles.setGateUrl(profileId, undefined)
    this.changed(profileId)
    return this.link(profileId)
  }

  /** (Re)opens a profile's link from what is kept (or what the managed gate says). */
  reopen(profileId: string): Promise<void> {
    const previous = this.opening.get(profileId) ?? Promise.resolve()
    const next = previous.then(() => this.open(profileId))
    this.opening.set(profileId, next)
    return next
  }

  /** Paydesk's own gate for the profile stopped (`reason`); the link waits for the gate started again. */
  managedExited(profileId: string, reason: string): void {
    const l = this.links.get(profileId)
    if (!l?.managed) return
    this.setState(
      profileId,
      'unreachable',
      `The Local approval gate stopped (${reason}); Paydesk is starting it again.`
    )
    void this.reopen(profileId)
  }

  private async open(profileId: string): Promise<void> {
    const previous = this.links.get(profileId)
    // Paydesk's own gate keeps its log across a restart: the new stream resumes where the old one stopped.
    const resumeFrom = previous?.managed ? previous.follower.lastSeq : 0
    await this.drop(profileId)
    if (this.closed) return
    let gate: ManagedGate | null
    // The Local profile's gate is Paydesk's own: while it starts, the link says so instead of "no gate".
    const own = this.d.profiles.get(profileId).environment === 'local'
    if (own) {
      this.starting.add(profileId)
      this.changed(profileId)
    }
    try {
      gate = await this.resolve(profileId)
    } catch (error) {
      this.starting.delete(profileId)
      this.why.set(profileId, error instanceof AppError ? error.message : 'The approval gate could not be started.')
      this.changed(profileId)
      return
    }
    this.starting.delete(profileId)
    this.why.delete(profileId)
    if (!gate || this.closed) return this.changed(profileId)
    const client = new GateClient({
      ...this.d.clientOptions,
      url: gate.url,
      token: gate.token,
      onUnauthorized: () => this.setState(profileId, 'signed-out', this.signedOut(gate.managed))
    })
    // A remote gate is read from where Paydesk last stopped: what it decided meanwhile is told in one summary.
    const positions = gate.managed ? undefined : this.d.positions
    const resume = positions && (await readFrom(positions, profileId, client.url, (n) => this.notify(profileId, n)))
    const link: Link = {
      url: client.url,
      managed: gate.managed,
      client,
      state: 'connecting',
      message: null,
      prompts: new Map(),
      count: undefined,
      counting: Promise.resolve(),
      follower: new GateFollower({
        client,
        ...(gate.managed && resumeFrom > 0 && { resumeFrom }),
        ...resume,
        log: this.d.log,
        ...(this.d.backoff !== undefined && { backoff: this.d.backoff }),
        onState: (state, message) => {
          this.setState(profileId, state, state === 'signed-out' ? this.signedOut(gate.managed) : message)
          if (state === 'live') this.countPrompts(profileId)
        },
        onEvent: (event) => this.onEvent(profileId, event)
      })
    }
    this.links.set(profileId, link)
    this.changed(profileId)
    link.follower.start()
  }

  private async resolve(profileId: string): Promise<ManagedGate | null> {
    const managed = await this.d.resolveManaged(profileId)
    if (managed) return managed
    const url = this.d.profiles.get(profileId).gateUrl
    if (!url) return null
    const token = await this.d.secrets.get(gateTokenAccount(profileId))
    if (!token) {
      this.why.set(
        profileId,
        'The approval gate’s operator token is missing from the keychain: connect the gate again.'
      )
      return null
    }
    return { url, token, managed: false }
  }

  private signedOut(managed: boolean): string {
    return managed
      ? 'Paydesk’s own approval gate refused its token: restart Paydesk.'
      : 'The approval gate refused the operator token (revoked, or for another gate). Connect again with a new one.'
  }

  private setState(profileId: string, state: GateLinkState, message: string | null): void {
    const l = this.links.get(profileId)
    if (!l || (l.state === state && l.message === message)) return
    // A refused token stays refused: the follower has stopped, a late failure does not hide it.
    if (l.state === 'signed-out') return
    l.state = state
    l.message = message
    this.changed(profileId)
  }

  private changed(profileId: string): void {
    this.d.emit('gate.linkChanged', this.link(profileId))
  }

  private onEvent(profileId: string, event: GateEvent): void {
    const l = this.links.get(profileId)
    if (!l) return
    this.d.emit('gate.event', { profileId, event })
    try {
      this.tell(profileId, l, event)
    } catch {
      this.d.log('a gate notification failed')
    }
    if (!l.managed) this.d.positions?.save(profileId, l.url, event.seq)
    if (event.kind === 'prompt' || event.kind === 'decision') this.countPrompts(profileId)
  }

  private tell(profileId: string, l: Link, event: GateEvent): void {
    if (event.kind === 'prompt') {
      const prompt = Prompt.safeParse(event.data)
      if (!prompt.success) return
      l.prompts.set(prompt.data.transactionId, prompt.data)
      if (l.prompts.size > REMEMBERED_PROMPTS) l.prompts.delete(l.prompts.keys().next().value!)
      const name = prompt.data.customerId ? this.d.customerName(profileId, prompt.data.customerId) : null
      return this.notify(profileId, promptArrived(prompt.data, name))
    }
    if (event.kind === 'decision') {
      const decision = Decision.safeParse(event.data)
      if (!decision.success) return
      const n = decisionMade(decision.data, event.actor, this.context(profileId, l, event.data))
      if (n) this.notify(profileId, n)
      if (decision.data.via === 'answer') l.prompts.delete(decision.data.transactionId)
      return
    }
    if (event.kind === 'decision-sent' && event.data['ok'] === false) {
      const id = String(event.data['transactionId'] ?? '')
      const n = decisionNotSent(
        id,
        String(event.data['action'] ?? ''),
        String(event.data['error'] ?? 'no answer'),
        this.context(profileId, l, { transactionId: id })
      )
      this.notify(profileId, n)
    }
    if (event.kind === 'decision-sent') l.prompts.delete(String(event.data['transactionId'] ?? ''))
  }

  /** Amount, sender and names of a payment: from the decision itself, else from its prompt. */
  private context(profileId: string, l: Link, data: Record<string, unknown>) {
    const prompt = l.prompts.get(String(data['transactionId'] ?? ''))
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined)
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined)
    const customerId = prompt?.customerId ?? str(data['customerId'])
    return {
      amount: num(data['amount']) ?? prompt?.amount,
      currency: str(data['currency']) ?? prompt?.currency,
      decimals: prompt?.decimals,
      sender: str(data['sender']) ?? prompt?.sender ?? null,
      customerName: customerId ? this.d.customerName(profileId, customerId) : null,
      waitedSeconds: prompt
        ? Math.round((Date.parse(prompt.fallbackAt) - Date.parse(prompt.receivedAt)) / 100) / 10
        : undefined
    }
  }

  private notify(profileId: string, n: ProfileNotification): void {
    const profiles = this.d.profiles
    const name = profiles.all().find((p) => p.id === profileId)?.name ?? profileId
    // Another profile's notification says whose it is; clicking it switches to that profile first.
    const title = profiles.activeProfileId === profileId ? n.title : `${name}: ${lowerFirst(n.title)}`
    this.d.notify({ ...n, title, profileId })
  }

  /** Open prompts, counted by the gate (GET /operator/prompts), one count at a time per profile. */
  private countPrompts(profileId: string): void {
    const l = this.links.get(profileId)
    if (!l) return
    l.counting = l.counting.then(async () => {
      if (this.links.get(profileId) !== l) return
      try {
        const { prompts } = await l.client.call('GET', '/operator/prompts', PromptList)
        if (this.links.get(profileId) !== l || l.count === prompts.length) return
        l.count = prompts.length
        this.d.emit('gate.promptsChanged', { profileId, count: prompts.length })
      } catch {
        // The link's state tells what failed; the badge keeps its last count.
      }
    })
  }

  /** Open prompts of a profile as last counted (0 when unknown): what the tray shows. */
  openPrompts(profileId: string): number {
    return this.links.get(profileId)?.count ?? 0
  }

  /** Waits for the prompt counts in flight (tests). */
  async counted(profileId: string): Promise<void> {
    await this.links.get(profileId)?.counting
  }

  /** The profile is gone (removed): its link stops. */
  async forget(profileId: string): Promise<void> {
    await this.drop(profileId)
    this.why.delete(profileId)
    // The position goes with the profile's folder; no write of it may land after (it would make the folder again).
    await this.d.positions?.flush()
  }

  private async drop(profileId: string): Promise<void> {
    const l = this.links.get(profileId)
    if (!l) return
    this.links.delete(profileId)
    await l.follower.stop()
    await l.counting
    await l.client.close()
    // The badge of a profile whose gate is no longer followed counts nothing (a new link counts again once live).
    if (l.count && !this.closed) this.d.emit('gate.promptsChanged', { profileId, count: 0 })
  }

  async close(): Promise<void> {
    this.closed = true
    // Not waiting for links still opening: the Local gate may still be starting (it stops after this), and an
    // opening that resolves now finds `closed` and opens nothing.
    await Promise.all([...this.links.keys()].map((id) => this.drop(id)))
    await this.d.positions?.flush()
  }
}
