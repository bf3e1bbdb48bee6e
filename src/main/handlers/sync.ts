import type { syncChannels } from '../../shared/ipc/channels/sync'
import type { ProfileSession } from '../domain/profile-session'
import type { Handlers } from './dispatch'

/** The sync channels (src/shared/ipc/channels/sync.ts): the active profile's sync, and the Local sandbox's Restart. */
export function syncHandlers(
  active: () => Promise<ProfileSession>,
  /** Restarts the Local sandbox's process; its session then re-opens with a client (app/local-profile.ts). */
  restartLocalSandbox: () => Promise<void>
): Pick<Handlers, keyof typeof syncChannels> {
  return {
    'sync.status': async () => (await active()).syncStatus(),
    'sync.now': async () => {
      const s = await active()
      await s.sync?.scheduler.pollNow()
      return s.syncStatus()
    },
    // The top bar's Restart: the process first, then the status of the session it re-opened.
    'sync.restartLocalSandbox': async () => {
      await restartLocalSandbox()
      return (await active()).syncStatus()
    }
  }
}
