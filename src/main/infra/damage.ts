import { promises as fs } from 'node:fs'
import path from 'node:path'
import { setAside } from './atomic-file'
import type { Notice } from '../../shared/notice'

/**
 * "Set aside and tell": the one way Paydesk meets damage in what it keeps in its data folder. Whatever cannot be read
 * as what it should be (truncated, garbage, empty, the wrong shape, a folder where a file should be or a file where a
 * folder should be, refused by the OS) is renamed beside itself (kept, never deleted), the operator is told in a notice
 * that names it and where it went, and the caller starts fresh. A damaged file must never stop the app, nor a profile.
 */

export interface Damage {
  /** What was damaged (a file or a folder). */
  file: string
  /** Where it was kept; undefined when it vanished before it could be moved. */
  setAsideAs: string | undefined
  /** What was wrong with it, in a few words (never its content). */
  why: string
}

/** What a damaged file held and what to do, in the operator's words; `damageNotice` adds which file and where. */
interface DamageWording {
  title: string
  /** What starting fresh lost. */
  lost: string
  todo: string
  profileId?: string
}

async function keepAside(file: string, reason: string, why: string): Promise<Damage> {
  return { file, setAsideAs: await setAside(file, reason), why }
}

/**
 * Reads `file` through `parse`; undefined when there is none. `parse` throws on what is not the file Paydesk wrote
 * (empty, truncated, garbage, the wrong shape, undecryptable): that, a folder in its place, or a file the OS refuses to
 * read is set aside and handed to `damaged`, and the caller starts fresh. Other failures (a full disk, an I/O error)
 * are thrown: they say nothing about the file.
 */
export async function readOrSetAside<T>(
  file: string,
  reason: string,
  parse: (data: Buffer) => T,
  damaged: (damage: Damage) => void
): Promise<T | undefined> {
  let data: Buffer
  try {
    data = await fs.readFile(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    // ENOTDIR: a file stands where one of its folders should be; that folder is the damage (`ensureFolder`).
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    if (code === 'EISDIR') damaged(await keepAside(file, reason, 'a folder where a file should be'))
    else if (code === 'EACCES' || code === 'EPERM') damaged(await keepAside(file, reason, 'not readable by Paydesk'))
    else throw error
    return undefined
  }
  try {
    return parse(data)
  } catch {
    damaged(await keepAside(file, reason, data.length === 0 ? 'empty' : 'not what Paydesk wrote'))
    return undefined
  }
}

/** A folder Paydesk keeps: a file (or anything but a folder) in its place is set aside, told, and a new folder made. */
export async function ensureFolder(dir: string, damaged: (damage: Damage) => void): Promise<void> {
  const stat = await fs.stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (stat && !stat.isDirectory()) damaged(await keepAside(dir, 'not-a-folder', 'a file where a folder should be'))
  await fs.mkdir(dir, { recursive: true, mode: 0o700 })
}

/** The notice of one damaged file: which, what was wrong, where it was kept, what starting fresh lost, what to do. */
/** A notice as a finding reports it: the board gives it its id (unless it names one) and its time. */
export type NoticeDraft = Omit<Notice, 'id' | 'at'> & { id?: string }

export function damageNotice(damage: Damage, wording: DamageWording): NoticeDraft {
  const kept = damage.setAsideAs !== undefined ? ` It was kept as ${path.basename(damage.setAsideAs)}.` : ''
  return {
    kind: 'damaged-file',
    ...(wording.profileId !== undefined && { profileId: wording.profileId }),
    title: wording.title,
    lost: `${damage.file} was ${damage.why}, so Paydesk set it aside and started fresh.${kept} ${wording.lost}`,
    todo: wording.todo,
    ...(damage.setAsideAs !== undefined && { setAsideAs: damage.setAsideAs })
  }
}

/**
 * Damage found before the notice board is open (the data folder and its lock are checked before the backend starts):
 * held here, by data folder, and told by the board as it opens.
 */
const beforeTheBoard = new Map<string, NoticeDraft[]>()

export function tellWhenTheBoardOpens(dataDir: string, notice: NoticeDraft): void {
  const key = path.resolve(dataDir)
  beforeTheBoard.set(key, [...(beforeTheBoard.get(key) ?? []), notice])
}

export function takeDamageFoundBeforeTheBoard(dataDir: string): NoticeDraft[] {
  const key = path.resolve(dataDir)
  const found = beforeTheBoard.get(key) ?? []
  beforeTheBoard.delete(key)
  return found
}
