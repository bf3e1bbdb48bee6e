import { randomBytes } from 'node:crypto'
import { existsSync, promises as fs, renameSync } from 'node:fs'
import path from 'node:path'

/**
 * Replaces `file` with `data` so that a crash at any moment leaves either the old content or the new one, never a mix:
 * write a temp file in the same folder, fsync it, rename it over the target, then fsync the folder so the rename itself
 * is durable.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const dir = path.dirname(file)
  await fs.mkdir(dir, { recursive: true, mode: 0o700 })
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await fs.open(tmp, 'w', mode)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } catch (error) {
    await handle.close().catch(() => {})
    await fs.rm(tmp, { force: true })
    throw error
  }
  await handle.close()
  try {
    await fs.rename(tmp, file)
  } catch (error) {
    await fs.rm(tmp, { force: true })
    throw error
  }
  await syncDir(dir)
}

async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined
  try {
    handle = await fs.open(dir, 'r')
    await handle.sync()
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => {})
  }
}

/**
 * Moves a damaged file (or a folder where a file should be, or the reverse) out of the way, kept for inspection and
 * never deleted, and returns where it went (undefined: it was already gone). Two set aside in the same millisecond get
 * distinct names: a rename onto an existing file would replace, and so lose, the first.
 */
export async function setAside(file: string, reason: string): Promise<string | undefined> {
  const target = await freeName(`${file}.${reason}-${stampNow()}`)
  try {
    await fs.rename(file, target)
    return target
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** `setAside` for what runs before anything async may (the data folder's lock, at start). */
export function setAsideSync(file: string, reason: string): string | undefined {
  let target = `${file}.${reason}-${stampNow()}`
  for (let i = 1; existsSync(target); i++) target = `${file}.${reason}-${stampNow()}-${i}`
  try {
    renameSync(file, target)
    return target
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

function stampNow(): string {
  return new Date().toISOString().replace(/[:.]/g, '-')
}

async function freeName(wanted: string): Promise<string> {
  let target = wanted
  for (
    let i = 1;
    await fs.lstat(target).then(
      () => true,
      () => false
    );
    i++
  )
    target = `${wanted}-${i}`
  return target
}

export async function readFileIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}
