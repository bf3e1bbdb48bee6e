import { promises as fs } from 'node:fs'
import path from 'node:path'
import { ActionRecord, type ActionEntry, type ActionSettled, type ActionStarted } from '../../shared/action-log'
import { Sequencer } from '../infra/sequencer'
import { setAside, writeFileAtomic } from '../infra/atomic-file'
import { damageNotice, type Damage } from '../infra/damage'
import type { NoticeDraft } from '../infra/damage'
import { openJson, sealJson } from '../infra/sealed-file'

/**
 * A profile's log of manual actions (src/shared/action-log.ts), append-only in the profile folder. Each record is
 * sealed on its own (AES-256-GCM under the profile's cache key, sealed-file.ts) and framed by its length, then appended
 * and fsynced: a write never rewrites what is there, so an entry once written is never lost to a later one. An action's
 * `started` record is durable before the action is sent, its `settled` record follows the answer; one with no settled
 * record is shown as of unknown outcome. A crash mid-append leaves a torn last frame, and any frame that does not open
 * is damage: the file is set aside (kept), the frames before it are written back atomically, and the operator is told.
 */

const LENGTH_BYTES = 4
/** Far above any record (a few hundred bytes): a larger length is damage, not a record to allocate. */
const MAX_FRAME = 64 * 1024

export class ActionLog {
  private readonly started = new Map<string, ActionStarted>()
  private readonly settled = new Map<string, ActionSettled>()
  private readonly sequencer = new Sequencer()

  private constructor(
    private readonly file: string,
    private readonly key: Buffer
  ) {}

  static async open(file: string, key: Buffer, onDamage: (damage: Damage) => void = () => {}): Promise<ActionLog> {
    const log = new ActionLog(file, key)
    let data: Buffer
    try {
      data = await fs.readFile(file)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return log
      if (code !== 'EISDIR') throw error
      onDamage({ file, setAsideAs: await setAside(file, 'not-a-file'), why: 'a folder where a file should be' })
      return log
    }
    let offset = 0
    while (offset < data.length) {
      const frame = frameAt(data, offset)
      const record = frame && openRecord(key, frame)
      if (!record) break
      log.keep(record)
      offset += LENGTH_BYTES + frame.length
    }
    if (offset < data.length) {
      // What opened is kept, in a new file; the whole damaged one beside it, for whoever looks.
      const setAsideAs = await setAside(file, 'damaged')
      await writeFileAtomic(file, data.subarray(0, offset))
      onDamage({
        file,
        setAsideAs,
        why: offset === 0 ? 'not what Paydesk wrote' : 'cut short or altered after entry ' + log.started.size
      })
    }
    return log
  }

  /** Appends one record durably; resolves once it is on disk. Appends run one at a time, in call order. */
  async append(record: ActionRecord): Promise<void> {
    const checked = ActionRecord.parse(record)
    return this.sequencer.run(async () => {
      const sealed = sealJson(this.key, checked)
      const frame = Buffer.alloc(LENGTH_BYTES + sealed.length)
      frame.writeUInt32BE(sealed.length, 0)
      sealed.copy(frame, LENGTH_BYTES)
      await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 })
      const handle = await fs.open(this.file, 'a', 0o600)
      try {
        await handle.write(frame)
        await handle.sync()
      } finally {
        await handle.close()
      }
      this.keep(checked)
    })
  }

  /** Every action, newest first. */
  entries(): ActionEntry[] {
    return [...this.started.values()]
      .map((s): ActionEntry => {
        const end = this.settled.get(s.id)
        return {
          id: s.id,
          at: s.at,
          kind: s.kind,
          what: s.what,
          ids: [...s.ids, ...(end?.ids ?? []).filter((id) => !s.ids.includes(id))],
          reason: s.reason ?? null,
          outcome: end?.outcome ?? 'unknown',
          message: end?.message ?? null,
          code: end?.code ?? null,
          settledAt: end?.at ?? null
        }
      })
      .sort((a, b) => b.at.localeCompare(a.at))
  }

  /** Resolves once every append asked for so far is on disk. */
  idle(): Promise<void> {
    return this.sequencer.idle()
  }

  private keep(record: ActionRecord): void {
    if (record.type === 'started') this.started.set(record.id, record)
    else this.settled.set(record.id, record)
  }
}

function frameAt(data: Buffer, offset: number): Buffer | undefined {
  if (offset + LENGTH_BYTES > data.length) return undefined
  const length = data.readUInt32BE(offset)
  if (length === 0 || length > MAX_FRAME || offset + LENGTH_BYTES + length > data.length) return undefined
  return data.subarray(offset + LENGTH_BYTES, offset + LENGTH_BYTES + length)
}

function openRecord(key: Buffer, frame: Buffer): ActionRecord | undefined {
  try {
    const parsed = ActionRecord.safeParse(openJson(key, frame))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** What the operator is told when a profile's action log was set aside: what opened is kept, the rest is in the file set aside. */
export function actionLogDamaged(profile: { id: string; name: string }, damage: Damage): NoticeDraft {
  return damageNotice(damage, {
    profileId: profile.id,
    title: `The history of manual actions of “${profile.name}” was damaged.`,
    lost: 'The entries before the damage are kept; any after it are only in the file set aside.',
    todo: 'Nothing was sent or changed at the service. History lists what could be read; keep the file set aside for whoever audits this profile.'
  })
}
