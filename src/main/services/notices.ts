import path from 'node:path'
import { NoticeList, type Notice } from '../../shared/notice'
import { Sequencer } from '../sequencer'
import { readFileIfExists, writeFileAtomic } from './atomic-file'

export type NoticeDraft = Omit<Notice, 'id' | 'at'> & { id?: string }
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

  static async open(dataDir: string, onChange: (notices: Notice[]) => void, log: (m: string) => void) {
    const board = new NoticeBoard(path.join(dataDir, 'notices.json'), onChange, log)
    try {
      const raw = await readFileIfExists(board.file)
      if (raw) board.notices = NoticeList.parse(JSON.parse(raw.toString('utf8')))
    } catch {
      // Notices are a copy of what the log already says; an unreadable list starts empty rather than blocking start.
      log('notices.json was unreadable; earlier notices are in the log')
    }
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
