import { randomBytes } from 'node:crypto'
import path from 'node:path'
import type { ConnectionReport } from '../shared/ipc/channels/app'
import { LOCAL_PROFILE_ID } from '../shared/profile'
import { AppError } from './errors'
import { damageNotice, ensureFolder, type Damage } from './services/damage'
import { secretAccount, type SecretStore } from './services/keychain'
import {
  generateCountFromEnv,
  localSandboxIsBig,
  localSandboxStateFile,
  startLocalSandbox,
  type LocalSandbox
} from './services/local-sandbox'
import type { ReportDamage } from './services/notices'
import type { SandboxLauncher } from './services/sandbox-process'
import type { ProfileStore, StoredProfile } from './services/profiles'

interface LocalProfileDeps {
  dataDir: string
  profiles: ProfileStore
  secrets: SecretStore
  launcher?: SandboxLauncher | undefined
  log(message: string): void
  /** Its saved state found damaged (set aside by the sandbox) is told to the operator in a notice. */
  reportDamage?: ReportDamage | undefined
}

/**
 * The Local profile's embedded sandbox: started once with credentials generated once and kept in the keychain like any
 * other profile's, watched while it runs, and what the Local profile's session and connection test are told about it
 * (why there is no client, a notice shown once).
 */
export class LocalProfile {
  private sandbox: LocalSandbox | undefined
  private error: string | undefined
  /** Told to the operator once, in the Local profile's sync status (and in its connection reports). */
  private notice: string | undefined
  private noticeShown = false
  /**
   * The Local profile's session should re-open (set by the backend): the sandbox stopped or failed to start, or it came
   * up late with a notice for the operator.
   */
  onChange: () => void = () => {}

  private constructor(private readonly d: LocalProfileDeps) {}

  /**
   * Settles once the sandbox is ready to answer, or could not start (a big state: once its process is spawned, as its
   * session does not wait for it): never rejects.
   */
  private started: Promise<void> = Promise.resolve()
  /** Settles once the Local profile's address and secret are final (the process spawned, or failed to): never rejects. */
  private addressed: Promise<void> = Promise.resolve()

  /**
   * Starts the sandbox without waiting for it: the backend answers the cached transactions of a remote profile while
   * the process is spawned, and the profile calls once the Local address is set (`whenAddressed`). Whatever needs the
   * sandbox itself waits for `whenStarted`. `enabled: false` never starts it (the Local profile then reports it as
   * switched off).
   */
  static begin(d: LocalProfileDeps, enabled: boolean): LocalProfile {
    const local = new LocalProfile(d)
    if (enabled) {
      let addressed = () => {}
      local.addressed = new Promise((resolve) => (addressed = resolve))
      local.started = local.run(addressed)
    } else local.error = 'the embedded sandbox is switched off'
    return local
  }

  /** Resolves once the sandbox is started (see `started`): what `sessionOptions` says is final then. */
  whenStarted(): Promise<void> {
    return this.started
  }

  /**
   * Resolves once the Local profile's address and secret are final, before the sandbox answers: what the profile
   * calls need, so the profile list (the first screen) never waits for the sandbox to load its state.
   */
  whenAddressed(): Promise<void> {
    return this.addressed
  }

  private async run(addressed: () => void): Promise<void> {
    const { profiles, secrets } = this.d
    try {
      const generateTransactions = generateCountFromEnv()
      const profile = profiles.get(LOCAL_PROFILE_ID)
      let secret = await secrets.get(secretAccount(LOCAL_PROFILE_ID))
      if (!secret) {
        secret = randomBytes(32).toString('base64url')
        await profiles.setSecret(LOCAL_PROFILE_ID, secret, { internal: true })
      }
      // A file where the sandbox's folder should be would stop it from starting: set aside and told, like its state.
      await ensureFolder(path.dirname(localSandboxStateFile(this.d.dataDir)), (damage) => this.tellDamage(damage))
      // Asked before the start: a big state also lowers the process's priority.
      const big = localSandboxIsBig(this.d.dataDir, generateTransactions)
      const sandbox = await startLocalSandbox({
        dataDir: this.d.dataDir,
        lowPriority: big,
        tokenId: profile.tokenId,
        clientSecret: secret,
        previousBaseUrl: profile.baseUrl,
        log: this.d.log,
        ...(this.d.launcher !== undefined && { launcher: this.d.launcher }),
        ...(generateTransactions !== undefined && { generateTransactions })
      })
      this.sandbox = sandbox
      await profiles.setLocalBaseUrl(sandbox.baseUrl)
      addressed()
      const stopped = (message: string) => {
        if (this.sandbox !== sandbox) return
        this.sandbox = undefined
        this.error = message
        // The Local profile's session re-opens without a client and says why.
        this.onChange()
      }
      sandbox.onUnexpectedExit(stopped)
      // A small state is up in moments: wait, so the first sync works. A big one (a generated history, a large
      // state file) loads in the sandbox's own process while the cache answers; the session opened meanwhile starts
      // polling when it is up (`serviceReady`), so nothing the window already read is thrown away and asked again.
      const whenReady = sandbox.ready.then(
        (r) => {
          if (r.corruptFileMovedTo === undefined) return
          this.tellDamage({
            file: localSandboxStateFile(this.d.dataDir),
            setAsideAs: r.corruptFileMovedTo,
            why: 'not a state the sandbox could read'
          })
          this.notice = `The Local sandbox’s saved state was unreadable and was set aside as ${r.corruptFileMovedTo}; it started fresh.`
          // A session opened while a big file loaded was not told: it re-opens to say it (rare, and worth it).
          if (big) this.onChange()
        },
        (error: unknown) =>
          stopped(`the embedded sandbox failed to start (${error instanceof Error ? error.message : 'error'})`)
      )
      if (!big) await whenReady
    } catch (error) {
      this.error = error instanceof AppError ? error.message : 'the embedded sandbox failed to start'
      this.d.log(`local sandbox not started: ${error instanceof Error ? error.name : 'error'}`)
    } finally {
      addressed()
    }
  }

  private tellDamage(damage: Damage): void {
    this.d.reportDamage?.(
      damageNotice(damage, {
        profileId: LOCAL_PROFILE_ID,
        title: 'The Local sandbox’s saved state was damaged; it started fresh.',
        lost: 'Its demo customers, accounts and transactions were made anew; nothing outside the Local sandbox changed.',
        todo: 'Nothing: the Local sandbox moves no real money. Delete the kept file when you no longer need it.'
      })
    )
  }

  private get notRunning(): string {
    return `The Local sandbox is not running: ${this.error ?? 'it did not start'}.`
  }

  /**
   * What a session of `profile` is told about the sandbox: nothing for other profiles; for the Local one, whether it
   * may have a client, why not, its approval window, and the notice (once).
   */
  sessionOptions(profile: StoredProfile): {
    withoutClient: boolean
    noClientReason?: string
    notice?: string
    approvalWindowMs?: number
    serviceReady?: Promise<unknown>
  } {
    if (profile.environment !== 'local') return { withoutClient: false }
    const notice = this.noticeShown ? undefined : this.notice
    if (notice !== undefined) this.noticeShown = true
    return {
      withoutClient: !this.sandbox,
      ...(this.sandbox
        ? { approvalWindowMs: this.sandbox.approvalWindowMs, serviceReady: this.sandbox.ready }
        : { noClientReason: `${this.notRunning} Cached data stays available.` }),
      ...(notice !== undefined && { notice })
    }
  }

  /** The connection test of the Local profile: unreachable while the sandbox is not running, with the notice else. */
  async testConnection(profile: StoredProfile, test: () => Promise<ConnectionReport>): Promise<ConnectionReport> {
    await this.started
    if (!this.sandbox) {
      return {
        profileId: profile.id,
        ok: false,
        checkedAt: new Date().toISOString(),
        baseUrl: profile.baseUrl,
        code: 'UNREACHABLE',
        message: this.notRunning
      }
    }
    const notice = this.notice
    const report = await test()
    return notice ? { ...report, message: `${report.message} ${notice}` } : report
  }

  async close(): Promise<void> {
    // A process still being spawned is closed too, not left behind.
    await this.started
    await this.sandbox?.close().catch(() => {})
  }
}
