import { randomBytes } from 'node:crypto'
import path from 'node:path'
import type { Worker } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CacheReader, READ_GATE } from '../../../../src/main/infra/cache/reader'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { tempDir } from '../../helpers'
import { makeTransactions } from './fixtures'

// The reader thread answers the views' queries off main's event loop; when it stops, nothing waits forever.

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('cache-reader')))
afterEach(() => cleanup())

const sort = { field: 'createdAt', direction: 'desc' } as const

// ES2023's lib does not type Atomics.waitAsync (Node 20 and 22 have it).
const waitAsync = (Atomics as unknown as { waitAsync: (a: Int32Array, i: number, v: number) => { value: unknown } })
  .waitAsync

/**
 * Holds the thread's answers (ReaderData.testReadGate), so a read stays in flight for as long as the test needs:
 * racing a read's answer against the thread's end failed under load, the answer coming first.
 */
function readGate() {
  const gate = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT))
  return {
    gate,
    hold: () => Atomics.store(gate, READ_GATE.closed, 1),
    release: () => {
      Atomics.store(gate, READ_GATE.closed, 0)
      Atomics.notify(gate, READ_GATE.closed)
    },
    /** Resolves once `count` requests in all have reached the thread (and wait at the gate if it is held). */
    async arrived(count: number) {
      for (let seen; (seen = Atomics.load(gate, READ_GATE.arrived)) < count; )
        await waitAsync(gate, READ_GATE.arrived, seen).value
    }
  }
}

describe('the cache reader thread', () => {
  it('answers pending reads with an error when it stops, and the next read starts it again', async () => {
    const key = randomBytes(32)
    const file = path.join(dir, 'cache.db')
    const { store } = await CacheStore.open(file, key)
    await store.put('transactions', makeTransactions(30))
    const gate = readGate()
    const reader = new CacheReader({ file, key, cacheKiB: 1024, testReadGate: gate.gate })
    try {
      // Not up before it has opened the database (main answers a first screen itself meanwhile: store.ts).
      expect(reader.ready).toBe(false)
      expect((await reader.read('window', { filter: {}, sort, offset: 0, limit: 5 })).total).toBe(30)
      expect(reader.ready).toBe(true)
      gate.hold()
      const pending = reader.read('window', { filter: { search: 'bob' }, sort, offset: 0, limit: 5 })
      await gate.arrived(2)
      // As a crash would: the thread ends in the middle of a read.
      await (reader as unknown as { worker: Worker }).worker.terminate()
      await expect(pending).rejects.toThrow(/the cache reader stopped/)
      expect(reader.ready).toBe(false)
      gate.release()
      expect(await reader.read('count', { filter: { search: 'bob' } })).toBe(3)
    } finally {
      gate.release()
      await reader.close()
      await store.close()
    }
  })

  it('fails a read with the reason when it cannot open the database, and gives up after repeated failures', async () => {
    const file = path.join(dir, 'cache.db')
    const { store } = await CacheStore.open(file, randomBytes(32))
    await store.close()
    const reader = new CacheReader({ file, key: randomBytes(32), cacheKiB: 1024 })
    for (let attempt = 0; attempt < 3; attempt++)
      await expect(reader.read('count', { filter: {} })).rejects.toThrow(/not a database/)
    expect(reader.available).toBe(false)
    await expect(reader.read('count', { filter: {} })).rejects.toThrow(/could not start/)
    await reader.close()
  })

  it('answers reads still pending at close with an error instead of leaving them waiting', async () => {
    const key = randomBytes(32)
    const file = path.join(dir, 'cache.db')
    const { store } = await CacheStore.open(file, key)
    const gate = readGate()
    gate.hold()
    const reader = new CacheReader({ file, key, cacheKiB: 1024, testReadGate: gate.gate })
    const pending = reader.read('count', { filter: {} })
    await gate.arrived(1)
    await reader.close()
    await expect(pending).rejects.toThrow(/closed/)
    await expect(reader.read('count', { filter: {} })).rejects.toThrow(/closed/)
    await store.close()
  })
})
