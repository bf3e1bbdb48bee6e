import { rm } from 'node:fs/promises'
import path from 'node:path'
import { CacheStore, cacheKeyFor } from '../infra/cache/store'
import { damageNotice, ensureFolder, type Damage } from '../infra/damage'
import type { SecretStore } from '../infra/keychain'
import type { ReportDamage } from './notices'
import { profileDir } from './profiles'

/** What opening a profile's files needs besides the profile: where they are, its keys, and whom to tell. */
export interface ProfileDisk {
  dataDir: string
  secrets: SecretStore
  log(m: string): void
  /** Told of a file set aside; nobody when not given. */
  reportDamage?: ReportDamage | undefined
}

/** A profile's cache, open (or set aside and started afresh), and the key it is encrypted with. */
export interface OpenedCache {
  store: CacheStore
  key: Buffer
}

/**
 * Opens a profile's cache under its key from the keychain. It needs nothing from the service, so a caller can start it
 * before the rest of the session is known: the first screen reads the cache alone.
 */
export async function openProfileCache(
  { dataDir, secrets, log, reportDamage: tell = () => {} }: ProfileDisk,
  profile: { id: string; name: string }
): Promise<OpenedCache> {
  const dir = profileDir(dataDir, profile.id)
  // A file where the profiles' folder or this profile's folder should be is set aside, so the profile still opens.
  const folderDamaged = (damage: Damage) =>
    tell(
      damageNotice(damage, {
        profileId: profile.id,
        title: `The data folder of “${profile.name}” was damaged.`,
        lost: 'Its cache is rebuilt from the service; its transfer journal starts empty.',
        todo: 'Before sending any payment again, look at Transactions (outgoing, last days) to see what went out.'
      })
    )
  await ensureFolder(path.dirname(dir), folderDamaged)
  await ensureFolder(dir, folderDamaged)
  const { key } = await cacheKeyFor(secrets, profile.id)
  // Before the SQLite cache, a profile's cache was an encrypted log. It only mirrored the service, so it is removed
  // and the first sync rebuilds the cache (README, Offline).
  await rm(path.join(dir, 'cache.pdlog'), { force: true })
  const file = path.join(dir, 'cache.db')
  const { store, info } = await CacheStore.open(file, key)
  if (info.outcome === 'set-aside') {
    log(`cache of profile ${profile.id} was unreadable (${info.reason}) and was set aside; rebuilding from the service`)
    tell(
      damageNotice(
        { file, setAsideAs: info.setAsideAs, why: info.reason ?? 'unreadable' },
        {
          profileId: profile.id,
          title: `The offline cache of “${profile.name}” was damaged and is being rebuilt.`,
          lost: 'Nothing the service holds was lost: the lists fill again from the service as it syncs.',
          todo: 'Nothing, unless you are offline: the lists stay empty until Paydesk reaches the service.'
        }
      )
    )
  }
  return { store, key }
}
