import { rm } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { emptyTally, missedWhileClosed, tallyMissed } from '../notifications/gate-wording'
import type { ProfileNotification } from '../notifications/wording'
import { writeFileAtomic } from '../../infra/atomic-file'
import { damageNotice, readOrSetAside } from '../../infra/damage'
import type { ReportDamage } from '../notices'
import { profileDir } from '../profiles'
import type { FollowerDeps } from '../../infra/gate/gate-stream'

/**
 * Where Paydesk stopped reading a remote gate's log, per profile (`<profile folder>/gate-position.json`): the seq of
 * the last entry it delivered and the gate's URL. At the next start the link reads the log from there, so what the gate
 * decided while Paydesk was closed is told (once, as a summary) instead of passing unseen. No secret is kept here: the
 * operator token stays in the keychain.
 */

const PositionFile = z.strictObject({
  version: z.literal(1),
  /** The gate this seq belongs to: a position of another gate (the URL changed) is no position. */
  url: z.string().min(1),
  seq: z.number().int().min(0).refine(Number.isSafeInteger)
})
type PositionFile = z.infer<typeof PositionFile>

/** What the links need of the saved positions (absent in tests that start every link from now). */
export interface ReadPositions {
  /** The seq to resume after for this gate, or undefined: none kept, another gate's, or damaged (set aside, told). */
  read(profileId: string, url: string): Promise<number | undefined>
  /** Keeps `seq` as delivered; writes are coalesced, one in flight per profile, the latest value last. */
  save(profileId: string, url: string, seq: number): void
  /** The profile's gate was unlinked (or linked anew, or the profile removed): the next link starts from now. */
  forget(profileId: string): Promise<void>
  /** Waits for every write in flight (Paydesk closing). */
  flush(): Promise<void>
}

interface GatePositionsDeps {
  dataDir: string
  log(message: string): void
  reportDamage: ReportDamage
  profileName(profileId: string): string
}

interface Pending {
  next: PositionFile | undefined
  writing: Promise<void> | undefined
}

export class GatePositions implements ReadPositions {
  private readonly pending = new Map<string, Pending>()

  constructor(private readonly d: GatePositionsDeps) {}

  private file(profileId: string): string {
    return path.join(profileDir(this.d.dataDir, profileId), 'gate-position.json')
  }

  async read(profileId: string, url: string): Promise<number | undefined> {
    await this.pending.get(profileId)?.writing
    const saved = await readOrSetAside(
      this.file(profileId),
      'unreadable',
      (data) => PositionFile.parse(JSON.parse(data.toString('utf8'))),
      (damage) => {
        this.d.log(`the gate read position of profile ${profileId} was unreadable and was set aside`)
        this.d.reportDamage(
          damageNotice(damage, {
            profileId,
            title: `Where Paydesk stopped reading the approval gate of “${this.d.profileName(profileId)}” was damaged.`,
            lost: 'Paydesk follows the gate from now: what it decided while Paydesk was closed raised no notification.',
            todo: 'Look at Approvals → Decisions for what the gate decided while Paydesk was closed.'
          })
        )
      }
    )
    return saved && saved.url === url ? saved.seq : undefined
  }

  save(profileId: string, url: string, seq: number): void {
    let p = this.pending.get(profileId)
    if (!p) this.pending.set(profileId, (p = { next: undefined, writing: undefined }))
    p.next = { version: 1, url, seq }
    p.writing ??= this.drain(profileId, p)
  }

  /** Writes the latest position until none is waiting; a failed write is logged, and the next save tries again. */
  private async drain(profileId: string, p: Pending): Promise<void> {
    while (p.next) {
      const next = p.next
      p.next = undefined
      try {
        await writeFileAtomic(this.file(profileId), `${JSON.stringify(next)}\n`)
      } catch (error) {
        this.d.log(`saving the gate read position failed: ${error instanceof Error ? error.name : 'error'}`)
      }
    }
    p.writing = undefined
  }

  async forget(profileId: string): Promise<void> {
    const p = this.pending.get(profileId)
    if (p) p.next = undefined
    await p?.writing
    this.pending.delete(profileId)
    // A folder in its place stays: it is damage, set aside and told by the next read.
    await rm(this.file(profileId), { force: true }).catch(() => undefined)
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending.values()].map((p) => p.writing))
  }
}

/**
 * A remote link's follower settings from its saved position: the entries after it counted as missed and told in one
 * summary once the log's end is found (none when there was no position: a first link starts from now), and the end
 * saved as the new position.
 */
export async function readFrom(
  positions: ReadPositions,
  profileId: string,
  url: string,
  tell: (n: ProfileNotification) => void
): Promise<Pick<FollowerDeps, 'missedFrom' | 'onMissed' | 'onCaughtUp'>> {
  const missedFrom = await positions.read(profileId, url)
  const missed = emptyTally()
  return {
    ...(missedFrom !== undefined && { missedFrom }),
    onMissed: (events) => events.forEach((e) => tallyMissed(missed, e)),
    onCaughtUp: (seq) => {
      const n = missedFrom !== undefined ? missedWhileClosed(missed, seq) : null
      if (n) tell(n)
      positions.save(profileId, url, seq)
    }
  }
}
