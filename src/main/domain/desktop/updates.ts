import type { UpdateSettings, UpdateStatus } from '../../../shared/ipc/channels/desktop'
import { AppError } from '../../infra/app-error'

/** What electron-updater reports, reduced to what the operator needs to know. */
export type UpdaterEvent =
  | { type: 'checking' }
  | { type: 'available'; version: string }
  | { type: 'not-available' }
  | { type: 'downloaded'; version: string }
  | { type: 'error'; message: string }

/**
 * The host's updater (electron-updater in the desktop app; none in browser mode). It downloads on its own once an
 * update is found, verifies it, and never installs unless `installAndRestart` is called.
 */
export interface UpdaterDriver {
  configure(feedUrl: string): void
  check(): Promise<void>
  onEvent(listener: (event: UpdaterEvent) => void): void
  installAndRestart(): void
}

interface UpdateServiceDeps {
  settings: () => UpdateSettings
  driver: UpdaterDriver | undefined
  /** Why a restart now could lose track of money (transfers being sent or of unknown outcome). */
  moneyInFlight: () => Promise<string[]>
  onStatus: (status: UpdateStatus) => void
  log: (m: string) => void
  now?: () => Date
}

/** How often Paydesk looks for an update while updates are on. */
const UPDATE_CHECK_INTERVAL_MS = 6 * 3600 * 1000

/**
 * The update flow's policy: off until the operator sets a feed in Settings, download in the background, and restart
 * only when the operator asks and no money is in flight.
 */
export class UpdateService {
  private current: UpdateStatus
  private timer: ReturnType<typeof setInterval> | undefined
  private configuredFeed: string | null = null

  constructor(private readonly d: UpdateServiceDeps) {
    this.current = this.idleStatus()
    d.driver?.onEvent((event) => this.onEvent(event))
  }

  private idleStatus(): UpdateStatus {
    if (!this.d.driver) return { state: 'unsupported', message: 'Updates are installed by the desktop app only.' }
    return this.d.settings().enabled ? { state: 'idle' } : { state: 'off' }
  }

  status(): UpdateStatus {
    return { ...this.current }
  }

  private set(status: UpdateStatus): UpdateStatus {
    this.current = status
    this.d.onStatus(this.status())
    return this.status()
  }

  /** Follows the saved settings: points the updater at the feed and checks now and periodically, or stops. */
  applySettings(): void {
    const settings = this.d.settings()
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    if (!this.d.driver || !settings.enabled || settings.feedUrl === null) {
      this.configuredFeed = null
      // A downloaded update stays on offer: turning checks off does not take back what the operator may install.
      if (this.current.state !== 'ready') this.set(this.idleStatus())
      return
    }
    this.configuredFeed = settings.feedUrl
    this.d.driver.configure(settings.feedUrl)
    if (this.current.state !== 'ready') this.set({ state: 'idle' })
    void this.check().catch(() => {})
    this.timer = setInterval(() => void this.check().catch(() => {}), UPDATE_CHECK_INTERVAL_MS)
    this.timer.unref?.()
  }

  async check(): Promise<UpdateStatus> {
    if (!this.d.driver) return this.status()
    if (this.configuredFeed === null) {
      throw new AppError('CONFLICT', 'Updates are off: set an https feed in Settings and turn them on first.')
    }
    if (this.current.state === 'ready' || this.current.state === 'downloading') return this.status()
    try {
      await this.d.driver.check()
    } catch (error) {
      this.onEvent({ type: 'error', message: error instanceof Error ? error.message : String(error) })
    }
    return this.status()
  }

  /**
   * The operator clicked "Restart to install". Refused, changing nothing, while a transfer's outcome is unknown or a
   * transfer is on its way: the restart would cut the request and lose the service's answer.
   */
  async install(): Promise<UpdateStatus> {
    if (!this.d.driver || this.current.state !== 'ready') {
      throw new AppError('CONFLICT', 'No update has been downloaded yet.')
    }
    const reasons = await this.d.moneyInFlight()
    if (reasons.length > 0) {
      const message = `Paydesk will not restart while money is in flight: ${reasons.join('; ')}. Try again once they are settled.`
      this.d.log(`update restart refused: ${reasons.length} reason(s)`)
      this.set({ ...this.current, message })
      throw new AppError('CONFLICT', message)
    }
    this.d.log(`restarting to install update ${this.current.version ?? ''}`.trim())
    this.d.driver.installAndRestart()
    return this.status()
  }

  private onEvent(event: UpdaterEvent): void {
    const checkedAt = (this.d.now?.() ?? new Date()).toISOString()
    switch (event.type) {
      case 'checking':
        if (this.current.state !== 'ready') this.set({ state: 'checking' })
        return
      case 'available':
        this.set({ state: 'downloading', version: event.version, checkedAt })
        return
      case 'not-available':
        this.set({ state: 'idle', message: 'Paydesk is up to date.', checkedAt })
        return
      case 'downloaded':
        this.d.log(`update ${event.version} downloaded and verified`)
        this.set({ state: 'ready', version: event.version, message: 'Update ready — Restart to install', checkedAt })
        return
      case 'error':
        // The updater's message may name the feed; it holds no secret (the feed is a plain https address).
        this.d.log('update check failed')
        if (this.current.state !== 'ready')
          this.set({ state: 'error', message: `The update check failed: ${event.message.slice(0, 300)}`, checkedAt })
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }
}
