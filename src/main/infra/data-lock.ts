import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { AppError } from './app-error'
import { setAsideSync } from './atomic-file'
import { damageNotice, tellWhenTheBoardOpens, type Damage } from './damage'

/**
 * One Paydesk per data folder. The desktop app and browser mode share the per-user folder, and two processes writing
 * the same encrypted cache and transfer journal could lose data, so the second one refuses to start and says why.
 * A lock left by a process that no longer runs (a crash) is taken over.
 *
 * Runs first at start, before the notice board exists: damage found here (a file where the data folder should be,
 * something other than a lock in the lock's place) is set aside and told once the board opens.
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  const folder = statSync(dataDir, { throwIfNoEntry: false })
  if (folder && !folder.isDirectory()) {
    tellDamage(dataDir, damaged(dataDir, 'not-a-folder', 'a file where the data folder should be'), {
      title: 'A file stood where Paydesk’s data folder should be.',
      lost: 'Paydesk started with a new, empty data folder: no profiles but the Local sandbox, no caches, no journals.',
      todo: 'If the kept file is a backup of your data folder, close Paydesk and restore it as a folder.'
    })
  }
  // Profiles, journals and the cache are private: a folder made by an older version (0755) is tightened too.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  chmodSync(dataDir, 0o700)
  const file = join(dataDir, 'paydesk.lock')
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, String(pid))
      closeSync(fd)
      return () => {
        try {
          if (readFileSync(file, 'utf8') === String(pid)) rmSync(file)
        } catch {
          // Already gone: nothing to release.
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = readHolder(file)
      if (holder === 'damaged') {
        tellDamage(dataDir, damaged(file, 'damaged', 'not a lock Paydesk wrote'), {
          title: 'Paydesk’s lock file was damaged.',
          lost: 'Nothing was lost: the lock only says which Paydesk uses this data folder.',
          todo: 'Make sure only one Paydesk uses this data folder, then dismiss this notice.'
        })
        continue
      }
      if (holder !== undefined && holder !== pid && isRunning(holder)) {
        throw new AppError(
          'CONFLICT',
          `Another Paydesk (process ${holder}) is already using ${dataDir}. Close it first, or give this one its own data folder.`
        )
      }
      rmSync(file, { force: true }) // left behind by a process that is gone
    }
  }
  throw new AppError('INTERNAL', `Could not lock ${dataDir}.`)
}

/**
 * The process id in the lock; undefined for an empty lock (a crash between creating and writing it, taken over like
 * any stale lock); 'damaged' for anything else: a folder, garbage.
 */
function readHolder(file: string): number | undefined | 'damaged' {
  if (!lstatSync(file).isFile()) return 'damaged'
  const text = readFileSync(file, 'utf8')
  if (text === '') return undefined
  const holder = Number(text)
  return /^\d+$/.test(text) && Number.isSafeInteger(holder) && holder > 0 ? holder : 'damaged'
}

function damaged(file: string, reason: string, why: string): Damage {
  return { file, setAsideAs: setAsideSync(file, reason), why }
}

function tellDamage(dataDir: string, damage: Damage, wording: { title: string; lost: string; todo: string }): void {
  tellWhenTheBoardOpens(dataDir, damageNotice(damage, wording))
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
