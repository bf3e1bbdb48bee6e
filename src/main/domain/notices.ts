import path from 'node:path'
import { NoticeList, type Notice } from '../../shared/notice'
import { Sequencer } from '../infra/sequencer'
import { writeFileAtomic } from '../infra/atomic-file'
import { damageNotice, readOrSetAside, takeDamageFoundBeforeTheBoard, type NoticeDraft } from '../infra/damage'

export type ReportDamage = (notice: NoticeDraft) => void

/**
 * The notices the operator has not dismissed yet, kept in `<dataDir>/notices.json` so one raised while nobody looked
 * (or just before a restart) is still there at the next start. Holds sentences and paths, never secrets.
 */
export class NoticeBoard {
  private notices: Notice[] = []
  private readonly writes = new Sequencer()

  private constructor(
    private readonly file: string,
    private readonly onChange: (notices: Notice[]) => void,
    private readonly log: (message: string) => void
  ) {}

  /**
   * A damaged list (or a folder in its place) is set aside like any other damaged file, and told on the fresh board:
   * the operator learns that notices they had not read yet may be in the kept file. Damage found before the board
   * opened (the data folder, its lock) is told now too.
   */
  static async open(dataDir: string, onChange: (notices: Notice[]) => void, log: (m: string) => void) {
    const board = new NoticeBoard(path.join(dataDir, 'notices.json'), onChange, log)
    const told: NoticeDraft[] = takeDamageFoundBeforeTheBoard(dataDir)
    const read = await readOrSetAside(
      board.file,
      'corrupt',
      (data) => NoticeList.parse(JSON.parse(data.toString('utf8'))),
      (damage) =>
        told.push(
          damageNotice(damage, {
            title: 'The list of notices was damaged.',
            lost: 'Notices you had not dismissed yet (damaged or orphaned data found earlier) may be in the kept file; the log has them too.',
            todo: 'Read the kept file or the log (logs/paydesk.log in the data folder) for earlier notices, then dismiss this one.'
          })
        )
    )
    board.notices = read ?? []
    await Promise.all(told.map((notice) => board.report(notice).catch(() => undefined)))
    return board
  }

  /** Waits for the file to hold every notice reported so far (on close). */
  idle(): Promise<void> {
    return this.writes.idle()
  }

  list(): Notice[] {
    return this.notices.map((n) => ({ ...n }))
  }

  /**
   * Adds a notice (once per id) and tells the renderer at once; the file follows. Also written to the log. The list
   * changes synchronously, so whoever asks right after damage was found already sees it.
   */
  report(draft: NoticeDraft, now = new Date()): Promise<void> {
    const id = draft.id ?? `${draft.kind}:${draft.profileId ?? '-'}:${draft.setAsideAs ?? now.toISOString()}`
    this.log(`notice: ${draft.title} ${draft.lost}${draft.setAsideAs ? ` (kept as ${draft.setAsideAs})` : ''}`)
    return this.change((list) =>
      list.some((n) => n.id === id) ? list : [...list, { ...draft, id, at: now.toISOString() }]
    )
  }

  dismiss(id: string): Promise<Notice[]> {
    return this.change((list) => list.filter((n) => n.id !== id)).then(() => this.list())
  }

  private change(next: (list: Notice[]) => Notice[]): Promise<void> {
    const updated = next(this.notices)
    if (updated === this.notices) return this.writes.idle()
    this.notices = updated
    this.onChange(this.list())
    // Writes run one after another, each with the list as it was when it was queued: the last write is the newest.
    const snapshot = JSON.stringify(updated, null, 2)
    const run = this.writes.run(() => writeFileAtomic(this.file, snapshot))
    run.catch(() => this.log('notices.json could not be written; the notices stay on screen until restart'))
    return run
  }
}
