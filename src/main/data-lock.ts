import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from './errors'

/**
 * One Paydesk per data folder. The desktop app and browser mode share the per-user folder, and two processes writing
 * the same encrypted cache and transfer journal could lose data, so the second one refuses to start and says why.
 * A lock left by a process that no longer runs (a crash) is taken over.
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  // Profiles, journals and the cache are private: a folder made by an older version (0755) is tightened too.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  chmodSync(dataDir, 0o700)
  const file = join(dataDir, 'paydesk.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
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
      const holder = Number(readFileSync(file, 'utf8'))
      if (Number.isInteger(holder) && holder > 0 && holder !== pid && isRunning(holder)) {
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

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
