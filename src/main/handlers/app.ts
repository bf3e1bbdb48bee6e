import type { AppInfo, ConnectionReport } from '../../shared/ipc/channels/app'
import { isUnresolvedTransfer } from '../../shared/ipc/channels/data'
import type { Emit } from '../infra/emit'
import { AppError } from '../infra/app-error'
import type { Handlers } from './dispatch'
import type { GateLinks } from '../domain/gate/gate-links'
import { testConnection } from '../domain/connection'
import type { SecretStore } from '../infra/keychain'
import { describeTransfers, unresolvedTransfersOnDisk } from '../domain/profile-data'
import type { NoticeBoard } from '../domain/notices'
import type { ProfileSession } from '../domain/profile-session'
import type { ProfileStore, StoredProfile } from '../domain/profiles'

type ProfileChannel =
  | 'profiles.list'
  | 'profiles.create'
  | 'profiles.update'
  | 'profiles.remove'
  | 'profiles.switch'
  | 'profiles.setSecret'
  | 'profiles.clearSecret'
  | 'connection.test'
  | 'connection.testDraft'

/** What the profile channels ask of the running sessions (app/profile-sessions.ts is the one implementation). */
interface SessionControl {
  readonly running: ReadonlyMap<string, ProfileSession>
  active(): Promise<ProfileSession>
  close(id: string): Promise<void>
  restart(id: string): Promise<void>
  reconcile(): Promise<void>
  settle(): void
}

/** The Local profile's part in a connection test: its sandbox may still be starting (app/local-profile.ts). */
interface LocalConnection {
  testConnection(profile: StoredProfile, test: () => Promise<ConnectionReport>): Promise<ConnectionReport>
}

interface Deps {
  dataDir: string
  profiles: ProfileStore
  sessions: SessionControl
  gates: Pick<GateLinks, 'forget' | 'reopen'>
  secrets: SecretStore
  local: LocalConnection
  emit: Emit
  log(message: string): void
}

/**
 * The profile channels: the store changes, and the sessions follow (new credentials re-open a profile's session; a
 * removal closes it first, since its files go with it).
 */
export function profileHandlers(d: Deps): Pick<Handlers, ProfileChannel> {
  const { profiles, sessions } = d
  const profilesChanged = async () => d.emit('profiles.changed', await profiles.list())
  /** A change of credentials or address: the profile's session restarts, and the renderer hears of it. */
  const restarting =
    <I extends { id: string }, V>(change: (input: I) => Promise<V>) =>
    async (input: I): Promise<V> => {
      const view = await change(input)
      await sessions.restart(input.id)
      await profilesChanged()
      return view
    }
  return {
    'profiles.list': () => profiles.list(),
    'profiles.create': async (input) => {
      const view = await profiles.create(input)
      await profilesChanged()
      return view
    },
    'profiles.update': restarting((input) => profiles.update(input)),
    'profiles.setSecret': restarting(({ id, clientSecret }) => profiles.setSecret(id, clientSecret)),
    'profiles.clearSecret': restarting(({ id }) => profiles.clearSecret(id)),
    'profiles.remove': async ({ id, confirmUnknownTransfers }) => {
      const profile = profiles.get(id)
      // Its journal goes with it, and with the journal the keys that make a retry safe: never without being told.
      const running = sessions.running.get(id)
      const unknown = running
        ? running.transfers.records().records.filter(isUnresolvedTransfer)
        : await unresolvedTransfersOnDisk(d, profile)
      if (unknown.length > 0 && confirmUnknownTransfers !== true) {
        throw new AppError(
          'CONFIRMATION_REQUIRED',
          `“${profile.name}” has ${unknown.length} transfer${unknown.length === 1 ? '' : 's'} whose outcome is unknown: ` +
            `${describeTransfers(unknown)}. Removing the profile deletes their record. Check Transactions first, or ` +
            'confirm to remove it anyway.'
        )
      }
      if (unknown.length > 0) d.log(`profile ${id} removed with ${unknown.length} unknown transfer(s), on confirmation`)
      // Its files and its gate token go with it, so its session and its gate's stream stop first.
      await sessions.close(id)
      await d.gates.forget(id)
      let list
      try {
        list = await profiles.remove(id)
      } catch (error) {
        sessions.settle()
        void d.gates.reopen(id)
        throw error
      }
      d.emit('profiles.changed', list)
      sessions.settle()
      return list
    },
    'profiles.switch': async ({ id }) => {
      profiles.get(id)
      const list = await profiles.switch(id)
      // The profile left behind closes (its gate is still followed: GateLinks needs no session).
      await sessions.reconcile()
      d.emit('profiles.changed', list)
      void sessions.active().catch(() => {})
      return list
    },
    'connection.test': async ({ profileId }) => {
      const id = profileId ?? profiles.activeProfileId
      const profile = profiles.get(id)
      const test = async () => testConnection(profile, await profiles.secretOf(id))
      return profile.environment === 'local' ? d.local.testConnection(profile, test) : test()
    },
    'connection.testDraft': async ({ baseUrl, tokenId, clientSecret, profileId }) => {
      let secret = clientSecret
      if (secret === undefined && profileId !== undefined) {
        const saved = profiles.get(profileId)
        // A stored secret goes only where it was given for, never to an address or token id just typed into a form
        // (saving such a change removes it, for the same reason).
        if (saved.environment !== 'local' && saved.baseUrl === baseUrl && saved.tokenId === tokenId) {
          secret = await profiles.secretOf(profileId)
        }
      }
      return testConnection({ id: profileId, baseUrl, tokenId }, secret, {
        noSecret:
          profileId === undefined
            ? 'Enter the API client secret to test the connection.'
            : 'Enter the API client secret for this base URL and token id to test them: the stored one is only ' +
              'sent to the address it was given for.'
      })
    }
  }
}

interface AppDeps {
  info: AppInfo
  /** A person is looking at the window (focused, visible), or stopped: it drives the polling rate. */
  setForeground(foreground: boolean): void
  notices: Pick<NoticeBoard, 'list' | 'dismiss'>
  /** The scan for orphaned profile data: the list waits for what it found. */
  noticesFound: Promise<unknown>
}

/** The rest of the app channels (src/shared/ipc/channels/app.ts): what this Paydesk is, focus, and the notices. */
export function appHandlers(
  d: AppDeps
): Pick<Handlers, 'app.info' | 'app.reportForeground' | 'notices.list' | 'notices.dismiss'> {
  return {
    'app.info': async () => d.info,
    'app.reportForeground': async ({ foreground }) => {
      d.setForeground(foreground)
      return null
    },
    'notices.list': async () => {
      await d.noticesFound
      return d.notices.list()
    },
    'notices.dismiss': async ({ id }) => d.notices.dismiss(id)
  }
}
