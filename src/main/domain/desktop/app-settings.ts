import path from 'node:path'
import { z } from 'zod'
import { Appearance, DEFAULT_APPEARANCE } from '../../../shared/appearance'
import { DEFAULT_UPDATE_SETTINGS, UpdateSettings } from '../../../shared/ipc/channels/desktop'
import { writeFileAtomic } from '../../infra/atomic-file'
import { damageNotice, readOrSetAside } from '../../infra/damage'
import type { ReportDamage } from '../notices'

/** Settings of the app itself (not of a profile): `app-settings.json` in the data folder. Holds no secrets. */
const AppSettingsFile = z.object({
  version: z.literal(1),
  updates: UpdateSettings,
  /** The operator was told once that closing the window leaves Paydesk watching in the tray. */
  keptInTrayAnnounced: z.boolean(),
  /** Theme and time zone; a file written before they existed has none, and gets the defaults. */
  appearance: Appearance.default(DEFAULT_APPEARANCE)
})
type AppSettingsFile = z.infer<typeof AppSettingsFile>

const DEFAULTS: AppSettingsFile = {
  version: 1,
  updates: DEFAULT_UPDATE_SETTINGS,
  keptInTrayAnnounced: false,
  appearance: DEFAULT_APPEARANCE
}

export class AppSettings {
  private constructor(
    private readonly file: string,
    private state: AppSettingsFile
  ) {}

  /**
   * A file Paydesk cannot read (or a folder in its place) is set aside and told, and the defaults apply (updates off):
   * never a guess at a feed.
   */
  static async open(dataDir: string, log: (m: string) => void, tell: ReportDamage = () => {}): Promise<AppSettings> {
    const file = path.join(dataDir, 'app-settings.json')
    const read = await readOrSetAside(
      file,
      'unreadable',
      (data) => AppSettingsFile.parse(JSON.parse(data.toString('utf8'))),
      (damage) => {
        log('app-settings.json was unreadable and was set aside; updates are off')
        tell(
          damageNotice(damage, {
            title: 'The app settings were damaged and are back to their defaults.',
            lost:
              'Automatic updates are off and their feed is forgotten; the theme follows the system and times are ' +
              'local again; the reminder about the tray will show again.',
            todo: 'If you used automatic updates, turn them on again in Settings with your update feed.'
          })
        )
      }
    )
    return new AppSettings(file, read ?? DEFAULTS)
  }

  get updates(): UpdateSettings {
    return { ...this.state.updates }
  }

  get keptInTrayAnnounced(): boolean {
    return this.state.keptInTrayAnnounced
  }

  get appearance(): Appearance {
    return { ...this.state.appearance }
  }

  async setAppearance(appearance: Appearance): Promise<Appearance> {
    await this.save({ ...this.state, appearance: Appearance.parse(appearance) })
    return this.appearance
  }

  async setUpdates(updates: UpdateSettings): Promise<UpdateSettings> {
    await this.save({ ...this.state, updates: UpdateSettings.parse(updates) })
    return this.updates
  }

  async markKeptInTrayAnnounced(): Promise<void> {
    if (!this.state.keptInTrayAnnounced) await this.save({ ...this.state, keptInTrayAnnounced: true })
  }

  private async save(next: AppSettingsFile): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`)
    this.state = next
  }
}
