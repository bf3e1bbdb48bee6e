import { describe, expect, it } from 'vitest'
import { PageWriter } from '../../../../src/main/domain/sync/page-writer'

/** A write the test ends by hand: what was posted, in order, and a way to finish or fail each one. */
function manualWrites() {
  const posted: Array<{ items: number[]; meta: Record<string, unknown>; done: () => void; fail: (e: Error) => void }> =
    []
  const write = (items: number[], meta: Record<string, unknown>) =>
    new Promise<void>((resolve, reject) => posted.push({ items, meta, done: resolve, fail: reject }))
  return { posted, write }
}

const tick = () => new Promise((r) => setImmediate(r))

describe('PageWriter', () => {
  it('writes the first page at once and the pages read meanwhile together, with the last page’s watermark', async () => {
    const { posted, write } = manualWrites()
    const writer = new PageWriter(write, 1_000)
    await writer.add([1, 2], { 'tx.watermark': 'a', 'tx.scanFrom': 'a' })
    expect(posted.map((p) => p.items)).toEqual([[1, 2]])
    await writer.add([3], { 'tx.watermark': 'b', 'tx.scanFrom': 'b' })
    await writer.add([4], { 'tx.watermark': 'c' })
    // Still one write in flight: the two pages wait for it.
    expect(posted).toHaveLength(1)
    const flushed = writer.flush()
    posted[0]!.done()
    await tick()
    expect(posted.map((p) => p.items)).toEqual([
      [1, 2],
      [3, 4]
    ])
    expect(posted[1]!.meta).toEqual({ 'tx.watermark': 'c', 'tx.scanFrom': 'b' })
    posted[1]!.done()
    await flushed
  })

  it('waits for the write in flight once the buffer holds maxRows', async () => {
    const { posted, write } = manualWrites()
    const writer = new PageWriter(write, 3)
    await writer.add([1], {})
    await writer.add([2, 3], {})
    let added = false
    const third = writer.add([4], {}).then(() => (added = true))
    await tick()
    expect(added).toBe(false)
    posted[0]!.done()
    await third
    expect(posted.map((p) => p.items)).toEqual([[1], [2, 3, 4]])
  })

  it('after a failed write posts nothing more and throws, so no watermark passes rows that were not written', async () => {
    const { posted, write } = manualWrites()
    const writer = new PageWriter(write, 1_000)
    await writer.add([1], { 'tx.watermark': 'a' })
    await writer.add([2], { 'tx.watermark': 'b' })
    posted[0]!.fail(new Error('disk full'))
    await tick()
    await expect(writer.add([3], { 'tx.watermark': 'c' })).rejects.toThrow('disk full')
    await expect(writer.flush()).rejects.toThrow('disk full')
    expect(posted).toHaveLength(1)
  })

  it('settle waits for the write in flight and drops what was not posted', async () => {
    const { posted, write } = manualWrites()
    const writer = new PageWriter(write, 1_000)
    await writer.add([1], {})
    await writer.add([2], {})
    let settled = false
    const settling = writer.settle().then(() => (settled = true))
    await tick()
    expect(settled).toBe(false)
    posted[0]!.done()
    await settling
    expect(posted).toHaveLength(1)
  })
})
