import { ExternalAccount, externalAccountUpdateFor, type ExternalAccountUpdateRequest } from '../../shared/api'
import { UNSETTLED_EXTERNAL_ACCOUNT_STATUSES, type FollowedExternalAccount } from '../../shared/ipc/channels/accounts'
import { AppError } from '../infra/app-error'
import type { ApiClient } from '../infra/api-client'
import { ApiError } from '../infra/api-errors'
import type { CacheStore } from '../infra/cache/store'

/** What the edits need from the profile's session. */
interface AccountEditDeps {
  profileId: string
  client: ApiClient | undefined
  cache: CacheStore
  /** Runs a write, turning a network failure into a sentence that says nothing was queued (ProfileSession.write). */
  write<T>(what: string, work: (client: ApiClient) => Promise<T>): Promise<T>
  /** Tells the renderer the cached external accounts changed. */
  changed(): void
  /** False once the session closed (profile switched away or Paydesk quitting): following stops. */
  isOpen(): boolean
  log(message: string): void
  /** Delay before the n-th status check of a followed account (n from 0); default: quick at first, then slower. */
  followDelayMs?(attempt: number): number
  /** How long an account is followed at most (a real re-review can take hours); default 1 h. */
  followForMs?: number
  now?(): number
}

/** 1 s for the first 20 s, 5 s up to two minutes, then 30 s: quick while a sandbox review runs, gentle afterwards. */
export function defaultFollowDelayMs(attempt: number): number {
  if (attempt < 20) return 1_000
  if (attempt < 40) return 5_000
  return 30_000
}

const accountPath = (id: string) => `customers/external-accounts/${encodeURIComponent(id)}`

/** PATCH /customers/external-accounts/{id} (spec 4.6); the response body is "not shown", so the account is read back. */
async function patchExternalAccount(
  client: ApiClient,
  id: string,
  update: ExternalAccountUpdateRequest
): Promise<ExternalAccount> {
  const answer = await client.request('PATCH', accountPath(id), { body: update })
  const parsed = ExternalAccount.safeParse(answer)
  return parsed.success ? parsed.data : client.get(accountPath(id), ExternalAccount)
}

/**
 * The service's refusal of named fields as `fieldErrors` keyed by request path (`beneficiary.address.city`), so the
 * form shows each message at its field. Reads the sandbox's `details.issues: [{ path, message }]` and the simpler
 * `details.field` / `details.fields` shapes; anything else stays a message above the button.
 */
export function serviceFieldErrors(details: unknown, message: string): Record<string, string[]> | undefined {
  if (!details || typeof details !== 'object') return undefined
  const d = details as { issues?: unknown; field?: unknown; fields?: unknown }
  const out: Record<string, string[]> = {}
  if (Array.isArray(d.issues)) {
    for (const issue of d.issues as { path?: unknown; message?: unknown }[]) {
      if (typeof issue?.message !== 'string') continue
      const key = Array.isArray(issue.path) ? issue.path.map(String).join('.') : String(issue.path ?? '')
      ;(out[key] ??= []).push(issue.message.slice(0, 300))
    }
  }
  if (typeof d.field === 'string') (out[d.field] ??= []).push(message)
  if (d.fields && typeof d.fields === 'object' && !Array.isArray(d.fields)) {
    for (const [key, value] of Object.entries(d.fields as Record<string, unknown>)) {
      if (typeof value === 'string') (out[key] ??= []).push(value.slice(0, 300))
    }
  }
  return Object.keys(out).length > 0 ? out : undefined
}

interface Follow {
  timer: ReturnType<typeof setTimeout> | undefined
  attempt: number
  until: number
  checkedAt: string | null
}

/**
 * Edits of external accounts (platformAccountId and beneficiary, spec 4.6) and following an account whose status has
 * not settled (PENDING, UNDER_REVIEW: spec 3.1) by reading it from the service until it has, so the detail on screen
 * changes by itself. The cache always holds the latest account read.
 */
export class ExternalAccountEdits {
  private readonly follows = new Map<string, Follow>()
  private closed = false

  constructor(private readonly d: AccountEditDeps) {}

  private now(): number {
    return (this.d.now ?? Date.now)()
  }

  async update(id: string, update: ExternalAccountUpdateRequest): Promise<ExternalAccount> {
    const cached = this.d.cache.get<ExternalAccount>('externalAccounts', id)
    if (cached) {
      // The rules that depend on the stored account (its currency's beneficiary minimums; wallets have none),
      // checked before anything is sent.
      const checked = externalAccountUpdateFor({
        currency: cached.currency,
        accountType: cached.accountInfo.accountType
      }).safeParse(update)
      if (!checked.success) {
        const first = checked.error.issues[0]
        const fieldErrors: Record<string, string[]> = {}
        for (const issue of checked.error.issues)
          (fieldErrors[issue.path.map(String).join('.')] ??= []).push(issue.message)
        throw new AppError('INVALID_INPUT', `Nothing was changed: ${first?.message ?? 'the update is not valid'}.`, {
          fieldErrors
        })
      }
    }
    const account = await this.d.write('update the external account', async (client) => {
      try {
        return await patchExternalAccount(client, id, update)
      } catch (error) {
        throw this.explain(error)
      }
    })
    await this.d.cache.put('externalAccounts', [account])
    this.d.changed()
    this.startFollowing(account)
    return account
  }

  /** The cached account now; reads it from the service and keeps following it while its status has not settled. */
  follow(id: string): FollowedExternalAccount {
    const account = this.d.cache.get<ExternalAccount>('externalAccounts', id) ?? null
    let f = this.follows.get(id)
    if (!f && this.d.client && !this.closed) {
      f = this.track(id)
      this.schedule(id, f, 0)
    } else if (f) f.until = Math.max(f.until, this.now() + (this.d.followForMs ?? 3_600_000))
    const unsettled = account === null || UNSETTLED_EXTERNAL_ACCOUNT_STATUSES.includes(account.status)
    return {
      profileId: this.d.profileId,
      account,
      following: f !== undefined && unsettled,
      checkedAt: f?.checkedAt ?? null
    }
  }

  close(): void {
    this.closed = true
    for (const f of this.follows.values()) clearTimeout(f.timer)
    this.follows.clear()
  }

  private explain(error: unknown): unknown {
    if (!(error instanceof ApiError)) return error
    // The published API has no PATCH for external accounts (docs/real-service.md): say so instead of "no such item".
    if (error.httpStatus === 405 || error.httpStatus === 501 || (error.httpStatus === 404 && !error.serviceCode)) {
      return new AppError(
        'NOT_FOUND',
        'This service does not offer editing external accounts (spec 4.6); nothing was changed.',
        { httpStatus: error.httpStatus }
      )
    }
    if (error.code !== 'INVALID_INPUT') return error
    const fieldErrors = serviceFieldErrors(error.details, error.message)
    if (!fieldErrors) return error
    return new AppError('INVALID_INPUT', `${error.message} Nothing was changed.`, {
      fieldErrors,
      ...(error.serviceCode !== undefined && { serviceCode: error.serviceCode }),
      ...(error.httpStatus !== undefined && { httpStatus: error.httpStatus })
    })
  }

  private track(id: string): Follow {
    const f: Follow = {
      timer: undefined,
      attempt: 0,
      until: this.now() + (this.d.followForMs ?? 3_600_000),
      checkedAt: null
    }
    this.follows.set(id, f)
    return f
  }

  private startFollowing(account: ExternalAccount): void {
    if (this.closed || !UNSETTLED_EXTERNAL_ACCOUNT_STATUSES.includes(account.status)) return
    const existing = this.follows.get(account.id)
    if (existing) {
      clearTimeout(existing.timer)
      this.follows.delete(account.id)
    }
    const f = this.track(account.id)
    f.checkedAt = new Date(this.now()).toISOString()
    this.schedule(account.id, f, (this.d.followDelayMs ?? defaultFollowDelayMs)(0))
  }

  private schedule(id: string, f: Follow, delayMs: number): void {
    f.timer = setTimeout(() => void this.check(id, f), delayMs)
    f.timer.unref?.()
  }

  private stop(id: string, f: Follow): void {
    clearTimeout(f.timer)
    if (this.follows.get(id) === f) this.follows.delete(id)
  }

  private async check(id: string, f: Follow): Promise<void> {
    const client = this.d.client
    if (!this.d.isOpen()) this.close()
    if (this.closed || !client || this.follows.get(id) !== f) return
    let settled = false
    try {
      const account = await client.get(accountPath(id), ExternalAccount)
      if (this.closed || this.follows.get(id) !== f) return
      f.checkedAt = new Date(this.now()).toISOString()
      const before = this.d.cache.get<ExternalAccount>('externalAccounts', id)
      await this.d.cache.put('externalAccounts', [account])
      if (JSON.stringify(before) !== JSON.stringify(account)) this.d.changed()
      settled = !UNSETTLED_EXTERNAL_ACCOUNT_STATUSES.includes(account.status)
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_FOUND') {
        // Deleted meanwhile: drop it from the cache, stop following.
        await this.d.cache.put('externalAccounts', [], { remove: [id] }).catch(() => {})
        this.d.changed()
        settled = true
      } else if (!(error instanceof ApiError)) {
        // The cache closed under us (the profile was switched away): nothing left to follow for.
        this.d.log(`following ${id.slice(0, 60)} stopped: ${error instanceof Error ? error.name : 'error'}`)
        settled = true
      }
      // A network or service failure: try again at the next beat, the sync status tells the operator.
    }
    f.attempt += 1
    if (settled || this.now() >= f.until) return this.stop(id, f)
    this.schedule(id, f, (this.d.followDelayMs ?? defaultFollowDelayMs)(f.attempt))
  }
}
