import { describe, expect, it } from 'vitest'
import { Sequencer } from '../../../src/main/infra/sequencer'

describe('Sequencer', () => {
  it('runs work one piece at a time, in order, and a failure does not stop what comes after', async () => {
    const sequencer = new Sequencer()
    const log: string[] = []
    const step = (name: string, ms: number, fail = false) =>
      sequencer.run(async () => {
        log.push(`start ${name}`)
        await new Promise((r) => setTimeout(r, ms))
        log.push(`end ${name}`)
        if (fail) throw new Error(name)
        return name
      })
    const results = await Promise.allSettled([step('a', 20), step('b', 1, true), step('c', 5)])
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    await sequencer.idle()
  })
})
