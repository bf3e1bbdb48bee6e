import { randomBytes } from 'node:crypto'
import path from 'node:path'
import type { ConnectionReport } from '../../shared/ipc/channels/app'
import { LOCAL_PROFILE_ID } from '../../shared/profile'
import { AppError } from '../infra/app-error'
import { damageNotice, ensureFolder, type Damage } from '../infra/damage'
import { secretAccount, type SecretStore } from '../infra/keychain'
import {
  generateCountFromEnv,
  localSandboxIsBig,
  localSandboxStateFile,
  startLocalSandbox,
  testApprovalWindowFromEnv,
  type LocalSandbox
} from '../infra/local-sandbox'
import { LocalGate, type LocalGateAccess } from '../infra/local-gate'
import type { ReportDamage } from '../domain/notices'
import type { SandboxLauncher } from '../infra/child-launcher'
import type { ProfileStore, StoredProfile } from '../domain/profiles'

const SWITCHED_OFF = 'the embedded sandbox is switched off'

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
 * (why there is no client, a notice shown once). Once the sandbox is up, its approval gate (services/local-gate.ts)
 * starts beside it and the sandbox's approval webhook goes there.
 */
export class LocalProfile {
  private sandbox: LocalSandbox | undefined
  /** The Local gate, or why there is none; settles once the sandbox is up (or could not start). */
  private localGate: Promise<LocalGate> = Promise.reject(
    new AppError('UNREACHABLE', 'The Local approval gate is not running: the embedded sandbox is switched off.')
  )
  private readonly gateExitListeners: ((reason: string) => void)[] = []
  /** The gate once started, for close(), which must not wait for a sandbox still loading. */
  private runningGate: LocalGate | undefined
  private closing = false
  private error: string | undefined
  /** Told to the operator once, in the Local profile's sync status (and in its connection reports). */
  private notice: string | undefined
  private noticeShown = false
  /**
   * The Local profile's session should re-open (set by the backend): the sandbox stopped or failed to start, or it came
   * up late with a notice for the operator.
   */
  onChange: () => void = () => {}

  private constructor(private readonly d: LocalProfileDeps) {
    this.localGate.catch(() => undefined)
  }

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
      let gate: (g: Promise<LocalGate>) => void = () => {}
      local.localGate = new Promise<LocalGate>((resolve) => (gate = resolve))
      local.localGate.catch(() => undefined)
      local.started = local.run(addressed, gate)
    } else local.error = SWITCHED_OFF
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

  /**
   * The Local approval gate's address and Paydesk's operator token, once the gate runs and the Local sandbox's
   * webhookEndpoint points at it (after a restart, the new run's); rejects with an AppError saying why it could not
   * start.
   */
  async gate(): Promise<LocalGateAccess> {
    return (await this.localGate).access()
  }

  /** Told when the Local gate's process stops unexpectedly, with why (it is started again: `gate()` waits for it). */
  onGateExit(listener: (reason: string) => void): void {
    this.gateExitListeners.push(listener)
  }

  /** The Local gate, started once the sandbox answers (its webhook key and customers are read from it). */
  private startGate(
    sandbox: LocalSandbox,
    tokenId: string,
    clientSecret: string,
    approvalWindowMs: number | undefined
  ): Promise<LocalGate> {
    const gate = sandbox.ready.then(
      async () => {
        if (this.closing)
          throw new AppError('UNREACHABLE', 'The Local approval gate is not running: Paydesk is closing.')
        const g = await LocalGate.start({
          dataDir: this.d.dataDir,
          sandbox: { baseUrl: sandbox.baseUrl, tokenId, clientSecret },
          secrets: this.d.secrets,
          launcher: this.d.launcher,
          log: this.d.log,
          approvalWindowMs,
          onExit: (reason) => {
            for (const l of this.gateExitListeners) l(reason)
          }
        })
        this.runningGate = g
        if (this.closing) void g.close()
        return g
      },
      (error: unknown) => {
        throw new AppError(
          'UNREACHABLE',
          `The Local approval gate is not running: the embedded sandbox failed to start (${error instanceof Error ? error.message : 'error'}).`
        )
      }
    )
    gate.then(
      (g) => g.access().catch((e: unknown) => this.d.log(`Local gate not started: ${(e as Error).message}`)),
      (e: unknown) => this.d.log(`Local gate not started: ${(e as Error).message}`)
    )
    return gate
  }

  private async run(addressed: () => void, gate: (g: Promise<LocalGate>) => void): Promise<void> {
    const { profiles, secrets } = this.d
    // Whatever stops the sandbox before its gate starts is the gate's reason too.
    let gateStarted = false
    try {
      const generateTransactions = generateCountFromEnv()
      // Test-only (e2e): a longer approval window for the sandbox and its gate alike; unset in normal use.
      const approvalWindowMs = testApprovalWindowFromEnv()
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
        ...(generateTransactions !== undefined && { generateTransactions }),
        ...(approvalWindowMs !== undefined && { approvalWindowMs })
      })
      this.sandbox = sandbox
      gate(this.startGate(sandbox, profile.tokenId, secret, approvalWindowMs))
      gateStarted = true
      await profiles.setLocalBaseUrl(sandbox.baseUrl)
      addressed()
      const stopped = this.watch(sandbox)
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
      if (!gateStarted)
        gate(Promise.reject(new AppError('UNREACHABLE', `The Local approval gate is not running: ${this.error}.`)))
    } finally {
      addressed()
    }
  }

  /** What happens when `sandbox` stops unexpectedly: the Local profile's session re-opens without a client, saying why. */
  private watch(sandbox: LocalSandbox): (message: string) => void {
    const stopped = (message: string) => {
      if (this.sandbox !== sandbox) return
      this.sandbox = undefined
      this.error = message
      this.onChange()
    }
    sandbox.onUnexpectedExit(stopped)
    return stopped
  }

  /**
   * The top bar's Restart: starts the Local sandbox's process again (stopping it first if it still runs), with the same
   * credentials and state file, on the same port when it is free, so the Local gate (which keeps running) still reaches
   * it and its webhook still points at the gate. Resolves once the sandbox answers, after which the Local profile's
   * session re-opens with a client (`onChange`); rejects with why it could not start.
   */
  async restart(): Promise<void> {
    await this.started
    if (this.closing) throw new AppError('INTERNAL', 'Paydesk is closing.')
    if (this.error === SWITCHED_OFF)
      throw new AppError('UNREACHABLE', `The Local sandbox is not running: ${SWITCHED_OFF}.`)
    const attempt = this.respawn()
    this.started = attempt.then(
      () => undefined,
      () => undefined
    )
    await attempt
  }

  private async respawn(): Promise<void> {
    const { profiles, secrets } = this.d
    const old = this.sandbox
    this.sandbox = undefined
    await old?.close().catch(() => {})
    const profile = profiles.get(LOCAL_PROFILE_ID)
    const secret = await secrets.get(secretAccount(LOCAL_PROFILE_ID))
    if (!secret) throw new AppError('KEYCHAIN', 'The Local profile’s generated secret is missing from the keychain.')
    const approvalWindowMs = testApprovalWindowFromEnv()
    let sandbox: LocalSandbox
    try {
      sandbox = await startLocalSandbox({
        dataDir: this.d.dataDir,
        tokenId: profile.tokenId,
        clientSecret: secret,
        previousBaseUrl: profile.baseUrl,
        log: this.d.log,
        ...(this.d.launcher !== undefined && { launcher: this.d.launcher }),
        ...(approvalWindowMs !== undefined && { approvalWindowMs })
      })
      await sandbox.ready
    } catch (error) {
      this.error = `the embedded sandbox failed to start again (${error instanceof Error ? error.message : 'error'})`
      this.d.log(`Local sandbox: ${this.error}`)
      throw new AppError('UNREACHABLE', `The Local sandbox is not running: ${this.error}.`)
    }
    // Its port was taken meanwhile: the Local gate is started again pointing at the new address, or its approvals would
    // go to the old one (a gate that cannot start is told by `gate()`, as at the first start).
    if (sandbox.baseUrl !== profile.baseUrl) {
      this.d.log('Local sandbox: restarted on another port; the Local approval gate follows it')
      await profiles.setLocalBaseUrl(sandbox.baseUrl)
      const repointed = this.runningGate?.repoint(sandbox.baseUrl)
      if (repointed) {
        // The link to it re-reads its address (the new run's, which `gate()` now waits for).
        for (const l of this.gateExitListeners) l('to follow the Local sandbox to its new address')
        await repointed.catch((e: unknown) => {
          this.d.log(`Local gate not started again: ${e instanceof Error ? e.message : 'error'}`)
        })
      }
    }
    this.sandbox = sandbox
    this.error = undefined
    this.watch(sandbox)
    this.d.log('Local sandbox: restarted')
    this.onChange()
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
   * may have a client, why not, and the notice (once).
   */
  sessionOptions(profile: StoredProfile): {
    withoutClient: boolean
    noClientReason?: string
    notice?: string
    serviceReady?: Promise<unknown>
  } {
    if (profile.environment !== 'local') return { withoutClient: false }
    const notice = this.noticeShown ? undefined : this.notice
    if (notice !== undefined) this.noticeShown = true
    return {
      withoutClient: !this.sandbox,
      ...(this.sandbox
        ? { serviceReady: this.sandbox.ready }
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
    // A process still being spawned is closed too, not left behind; the gate first, as it calls the sandbox.
    this.closing = true
    await this.started
    await this.runningGate?.close()
    await this.sandbox?.close().catch(() => {})
  }
}
