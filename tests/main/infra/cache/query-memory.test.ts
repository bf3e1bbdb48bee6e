import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { QueryMemory } from '../../../../src/main/infra/cache/query-memory'
import { migrate } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import { setMeta } from '../../../../src/main/infra/cache/writes'
import { tempDir } from '../../helpers'

let cleanup: () => Promise<void>
let reader: SqliteDatabase
let writer: SqliteDatabase
beforeEach(async () => {
  const temp = await tempDir('query-memory')
  cleanup = temp.cleanup
  const file = path.join(temp.dir, 'cache.db')
  const key = randomBytes(32)
  writer = openEncryptedDatabase(file, key)
  migrate(writer)
  reader = openEncryptedDatabase(file, key)
})
afterEach(async () => {
  reader.close()
  writer.close()
  await cleanup()
})

describe('what a connection remembers', () => {
  it('answers again from memory until another connection commits, then asks anew', () => {
    const memory = new QueryMemory(reader)
    let counted = 0
    const count = () => memory.count('filter {}', () => ++counted)
    memory.forgetIfChanged()
    expect([count(), count()]).toEqual([1, 1])
    expect(memory.customersNamed('jane', () => ['Customer:3'])).toEqual(['Customer:3'])
    memory.forgetIfChanged()
    expect(count()).toBe(1)
    setMeta(writer, { 'tx.watermark': 'now' })
    memory.forgetIfChanged()
    expect(count()).toBe(2)
    expect(memory.customersNamed('jane', () => [])).toEqual([])
  })

  it('keeps the 64 most recently used answers of each kind', () => {
    const memory = new QueryMemory(reader)
    memory.forgetIfChanged()
    for (let i = 0; i < 64; i++) memory.count(`filter ${i}`, () => i)
    // Used again, the first one is now the most recent; the second is the oldest and goes when one more comes.
    memory.count('filter 0', () => -1)
    memory.count('filter 64', () => 64)
    expect(memory.count('filter 0', () => -1)).toBe(0)
    expect(memory.count('filter 1', () => -1)).toBe(-1)
  })
})
