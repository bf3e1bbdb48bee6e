/**
 * The gate's WAL checkpoints in a thread of their own: the store's connection never checkpoints inside a commit, the
 * thread copies the WAL into the database and lets it start over (at the latest at its cap), nothing committed is lost,
 * and a thread that fails hands checkpoints back to SQLite's own. Every step waits on the thread's answer, never a timer.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SqliteCheckpointer, type CheckpointReply } from '../../../src/gate/store/sqlite-checkpointer'
import { openGateDatabase, type SqliteDatabase } from '../../../src/gate/store/sqlite-open'
import { SqliteGateStore } from '../../../src/gate/store/sqlite-store'

const dirs: string[] = []
const opened: SqliteDatabase[] = []
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function freshFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gate-checkpoint-'))
  dirs.push(dir)
  return join(dir, 'gate.db')
}

/** A connection as the store opens it, with a table to write to one row per commit. */
function database(file: string): { db: SqliteDatabase; commit: (n: number) => void } {
  const db = openGateDatabase(file)
  opened.push(db)
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, pad TEXT NOT NULL)')
  const insert = db.prepare('INSERT INTO t (n, pad) VALUES (?, ?)')
  return { db, commit: (n) => void db.transaction(() => insert.run(n, 'x'.repeat(2000))).immediate() }
}

function wal(reply: CheckpointReply): { log: number; checkpointed: number } {
  if (reply.type !== 'checkpointed') throw new Error(`the thread answered ${reply.message}`)
  return { log: reply.log, checkpointed: reply.checkpointed }
}

describe("the gate's SQLite checkpoint thread", () => {
  it('takes checkpoints off the store connection, copies the whole WAL, and the next commit starts it over', async () => {
    const file = freshFile()
    const { db, commit } = database(file)
    // A long interval: in this test the thread copies only when asked.
    const thread = new SqliteCheckpointer(db, { file, intervalMs: 600_000 })
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
      for (let n = 0; n < 40; n++) commit(n)
      const first = wal(await thread.checkpoint())
      expect(first.log).toBeGreaterThanOrEqual(40)
      expect(first.checkpointed).toBe(first.log)
      commit(40)
      // Every frame was in the database when this commit began: it wrote from the WAL's start.
      const second = wal(await thread.checkpoint())
      expect(second.log).toBeLessThan(first.log)
      expect(second.checkpointed).toBe(second.log)
    } finally {
      await thread.close()
    }
    db.close()
    const again = openGateDatabase(file)
    opened.push(again)
    expect(again.prepare('SELECT count(*) AS c FROM t').get()).toEqual({ c: 41 })
  })

  it('starts the WAL over with a RESTART once it passes the cap, even if a pass could not finish', async () => {
    const file = freshFile()
    const { db, commit } = database(file)
    const thread = new SqliteCheckpointer(db, { file, intervalMs: 600_000, restartAbovePages: 8 })
    try {
      for (let n = 0; n < 20; n++) commit(n)
      // A reader holding the WAL's frames keeps PASSIVE from copying them (as busy commits would keep it behind).
      const reader = openGateDatabase(file)
      opened.push(reader)
      reader.exec('BEGIN')
      reader.prepare('SELECT count(*) FROM t').get()
      for (let n = 20; n < 30; n++) commit(n)
      const held = wal(await thread.checkpoint())
      expect(held.checkpointed).toBeLessThan(held.log)
      reader.exec('COMMIT')
      const restarted = wal(await thread.checkpoint())
      expect(restarted.checkpointed).toBe(restarted.log)
      commit(30)
      expect(wal(await thread.checkpoint()).log).toBeLessThan(8)
    } finally {
      await thread.close()
    }
  })

  it('hands checkpoints back to SQLite when the thread cannot run, and says so', async () => {
    const file = freshFile()
    const { db } = database(file)
    const told: string[] = []
    const thread = new SqliteCheckpointer(db, {
      file,
      nativeBinding: join(file, 'no-such-binding.node'),
      log: (m) => told.push(m)
    })
    await thread.ended()
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000)
    expect(told).toHaveLength(1)
    expect(told[0]).toMatch(/checkpoints run in the gate's commits again/)
    expect(await thread.checkpoint()).toMatchObject({ type: 'failed' })
    await thread.close()
  })

  it("is the gate server's store's, closed with it, and leaves every commit in the database", async () => {
    const file = freshFile()
    const store = new SqliteGateStore({ file, now: Date.now, checkpointThread: true })
    for (let i = 0; i < 30; i++) await store.append({ kind: 'operator', actor: 'test', data: { i } })
    const pass = wal(await store.checkpoints!.checkpoint())
    expect(pass.checkpointed).toBe(pass.log)
    await store.close()
    await store.checkpoints!.ended()
    const reopened = new SqliteGateStore({ file, now: Date.now })
    expect(await reopened.verifyLog()).toEqual({ ok: true, rows: 30 })
    await reopened.close()
  })
})
