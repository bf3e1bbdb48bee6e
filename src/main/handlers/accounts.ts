import type { Handlers } from './dispatch'
import { writeOnline } from '../domain/client-access'
import { ExternalAccountEdits } from '../domain/external-account-edits'
import type { ProfileSession } from '../domain/profile-session'

type AccountHandlers = Pick<Handlers, 'externalAccounts.update' | 'externalAccounts.follow'>

/**
 * The handlers of `src/shared/ipc/channels/accounts.ts`: external-account edits and live status, one
 * `ExternalAccountEdits` per profile session (created on first use, gone with the session).
 */
export function accountHandlers(active: () => Promise<ProfileSession>, log: (m: string) => void): AccountHandlers {
  const edits = new WeakMap<ProfileSession, ExternalAccountEdits>()
  const editsOf = (session: ProfileSession): ExternalAccountEdits => {
    let e = edits.get(session)
    if (!e) {
      e = new ExternalAccountEdits({
        profileId: session.profileId,
        client: session.client,
        cache: session.cache,
        write: (what, work) => writeOnline(session.client, what, work),
        changed: () =>
          session.changed(['externalAccounts'], session.cache.meta<string>('externalAccounts.syncedAt') ?? null),
        isOpen: () => !session.isClosed,
        log
      })
      edits.set(session, e)
    }
    return e
  }
  return {
    'externalAccounts.update': async ({ id, update }) => editsOf(await active()).update(id, update),
    'externalAccounts.follow': async ({ id }) => editsOf(await active()).follow(id)
  }
}
