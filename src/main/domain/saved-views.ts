import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { MAX_SAVED_VIEWS, SavedView } from '../../shared/ipc/channels/workbench'
import { AppError } from '../infra/app-error'
import { writeFileAtomic } from '../infra/atomic-file'
import { damageNotice, readOrSetAside } from '../infra/damage'
import type { ReportDamage } from './notices'
import { profileDir } from './profiles'

/**
 * The operator's saved transaction views (a name for a set of filters and a sort), per profile: `saved-views.json` in
 * the profile's folder, written atomically, read once per profile and kept in memory. Holds no secrets. A file that
 * cannot be read as one is set aside and told, and the profile starts with no views.
 */
const SavedViewsFile = z.object({ version: z.literal(1), views: z.array(SavedView).max(MAX_SAVED_VIEWS) })
type SavedViewsFile = z.infer<typeof SavedViewsFile>

export class SavedViewFiles {
  private readonly read = new Map<string, Promise<SavedView[]>>()
  /** One write at a time per profile, in the order asked: two quick saves never leave the older one on disk. */
  private readonly queue = new Map<string, Promise<unknown>>()

  constructor(
    private readonly dataDir: string,
    private readonly log: (m: string) => void,
    private readonly tell: ReportDamage = () => {}
  ) {}

  list(profileId: string): Promise<SavedView[]> {
    let views = this.read.get(profileId)
    if (!views) {
      views = this.load(profileId)
      this.read.set(profileId, views)
    }
    return views.then((v) => [...v])
  }

  /** Saves a view under its name: a view of the same name (any case) is replaced, in its place. */
  async save(profileId: string, view: SavedView): Promise<SavedView[]> {
    // The channel checked it already; parsed again so no caller can write a view the file would not read back.
    const parsed = SavedView.parse(view)
    return this.change(profileId, (views) => {
      const at = views.findIndex((v) => sameName(v.name, parsed.name))
      if (at >= 0) return views.map((v, i) => (i === at ? parsed : v))
      if (views.length >= MAX_SAVED_VIEWS) {
        throw new AppError('CONFLICT', `A profile keeps at most ${MAX_SAVED_VIEWS} views: delete one first`)
      }
      return [...views, parsed]
    })
  }

  remove(profileId: string, name: string): Promise<SavedView[]> {
    return this.change(profileId, (views) => {
      if (!views.some((v) => sameName(v.name, name)))
        throw new AppError('NOT_FOUND', `There is no view named “${name}”`)
      return views.filter((v) => !sameName(v.name, name))
    })
  }

  private change(profileId: string, edit: (views: SavedView[]) => SavedView[]): Promise<SavedView[]> {
    const run = (this.queue.get(profileId) ?? Promise.resolve()).then(async () => {
      const next = edit(await this.list(profileId))
      const file = this.fileOf(profileId)
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
      await writeFileAtomic(file, `${JSON.stringify({ version: 1, views: next } satisfies SavedViewsFile, null, 2)}\n`)
      this.read.set(profileId, Promise.resolve(next))
      return [...next]
    })
    this.queue.set(
      profileId,
      run.catch(() => {})
    )
    return run
  }

  private fileOf(profileId: string): string {
    return path.join(profileDir(this.dataDir, profileId), 'saved-views.json')
  }

  private async load(profileId: string): Promise<SavedView[]> {
    const read = await readOrSetAside(
      this.fileOf(profileId),
      'unreadable',
      (data) => SavedViewsFile.parse(JSON.parse(data.toString('utf8'))),
      (damage) => {
        this.log('saved-views.json was unreadable and was set aside')
        this.tell(
          damageNotice(damage, {
            title: 'The saved transaction views were damaged.',
            lost: 'The views saved on this profile are gone from the Transactions list.',
            todo: 'Save the views you use again from the Transactions list.',
            profileId
          })
        )
      }
    )
    return read?.views ?? []
  }
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()
