import { promises as fs } from 'node:fs'
import path from 'node:path'
import { isUnresolvedTransfer } from '../../shared/ipc/channels/data'
import { cacheKeyAccount, type SecretStore } from '../infra/keychain'
import type { NoticeDraft } from '../infra/damage'
import type { ProfileDisk } from './profile-cache'
import { profileDir } from './profiles'
import { TransferJournal, type StoredTransferRecord } from './transfer-journal'

/**
 * What Paydesk keeps for a profile outside its entry in the profile list: its folder (cache, transfer journal, files
 * of older versions) and its keychain entries. Read here so removing a profile, or losing the list, never leaves them
 * behind silently.
 */

/** The transfers of a profile (not running now) whose outcome is unknown, read from its journal on disk. */
export async function unresolvedTransfersOnDisk(
  { dataDir, secrets, log, reportDamage: tell = () => {} }: ProfileDisk,
  profile: { id: string; name: string }
): Promise<StoredTransferRecord[]> {
  const stored = await secrets.get(cacheKeyAccount(profile.id))
  if (!stored) return []
  const file = path.join(profileDir(dataDir, profile.id), 'transfers.sealed')
  // A journal found damaged here is set aside like the session would: told now, or nobody would hear of it.
  const journal = await TransferJournal.open(file, Buffer.from(stored, 'base64'), profile.id, log, (where) =>
    tell(transferJournalDamaged(profile, where))
  )
  return journal.list().filter(isUnresolvedTransfer)
}

/** What the operator is told when a profile's transfer journal was set aside. */
export function transferJournalDamaged(profile: { id: string; name: string }, where: string | undefined): NoticeDraft {
  return {
    kind: 'transfer-journal',
    profileId: profile.id,
    title: `The transfer journal of “${profile.name}” was damaged.`,
    lost: 'Paydesk no longer knows which transfers it started on this profile, including any whose outcome was unknown.',
    todo:
      'Before sending any payment again, look at Transactions (outgoing, last days) to see what went out. The ' +
      'damaged file was kept.',
    ...(where !== undefined && { setAsideAs: where })
  }
}

/** One sentence per transfer, for a confirmation that names them. */
export function describeTransfers(
  records: Pick<StoredTransferRecord, 'amount' | 'destinationAccountId' | 'createdAt'>[]
) {
  return records.map((r) => `${r.amount} minor units to ${r.destinationAccountId}, started ${r.createdAt}`).join('; ')
}

const PROFILE_ACCOUNT = /^profile:([a-z0-9][a-z0-9-]{0,63}):/

/**
 * Profile folders and keychain entries that no profile in the list points to (a damaged list, a removal cut short):
 * reported to the operator, never deleted by Paydesk on its own.
 */
export async function findOrphans(
  dataDir: string,
  secrets: SecretStore,
  profileIds: () => string[]
): Promise<NoticeDraft | undefined> {
  const before = profileIds()
  const [entries, names] = await Promise.all([
    fs.readdir(path.join(dataDir, 'profiles'), { withFileTypes: true }).catch(() => []),
    secrets.accounts().catch(() => [])
  ])
  // The list is read before and after the folders and the keychain: a profile added or removed meanwhile (the app
  // keeps running while this looks) is not an orphan.
  const known = new Set([...before, ...profileIds()])
  const folders = entries.filter((e) => e.isDirectory() && !known.has(e.name)).map((e) => e.name)
  const accounts = names
    .map((a) => PROFILE_ACCOUNT.exec(a)?.[1])
    .filter((id): id is string => id !== undefined && !known.has(id))
  const ids = [...new Set([...folders, ...accounts])].sort()
  if (ids.length === 0) return undefined
  return {
    id: `orphaned-data:${ids.join(',')}`,
    kind: 'orphaned-data',
    title: `Data of ${ids.length} profile${ids.length === 1 ? '' : 's'} that ${ids.length === 1 ? 'is' : 'are'} not in the profile list.`,
    lost: `Paydesk keeps ${[
      folders.length ? `folders (cache, transfer journal) for ${folders.join(', ')}` : '',
      accounts.length ? `keychain entries for ${[...new Set(accounts)].join(', ')}` : ''
    ]
      .filter(Boolean)
      .join(' and ')}, but no profile points to them.`,
    todo:
      'If a damaged profile list lost these profiles, restore it while Paydesk is closed. Otherwise remove the ' +
      `folders under ${path.join(dataDir, 'profiles')} and the “Paydesk” keychain entries yourself once you no longer need them.`
  }
}
