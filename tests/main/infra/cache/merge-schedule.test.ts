import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MERGE_HOLD_MS, MergeSchedule, ReadMarks } from '../../../../src/main/infra/cache/merge-schedule'

/**
 * A merge of `steps` steps; `done` counts the steps taken. `reads` is main's side of the marks, on memory of its own
 * (as across threads): the schedule sees what main marks only through the shared buffer.
 */
function mergeOf(steps: number) {
  const merge = { done: 0 }
  const shared = ReadMarks.create()
  const schedule = new MergeSchedule(() => ++merge.done < steps, new ReadMarks(shared.buffer))
  return { merge, schedule, reads: shared }
}

/** Lets `ms` of fake time pass: the timers due meanwhile run, and one turn of immediates. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms)
/** Runs every timer and immediate, and those they schedule, until none is left. */
const untilIdle = () => vi.runAllTimersAsync()

describe('the text index merge, step by step between reads', () => {
  beforeEach(() =>
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] })
  )
  afterEach(() => vi.useRealTimers())

  it('takes one step a turn until nothing is left', async () => {
    const { merge, schedule } = mergeOf(5)
    schedule.start()
    // Not in the turn that asked: the requests already waiting go first.
    expect(merge.done).toBe(0)
    await untilIdle()
    expect(merge.done).toBe(5)
    schedule.start() // again once finished: one step, which finds nothing to do
    await untilIdle()
    expect(merge.done).toBe(6)
  })

  it('rests while the views read, and goes on once they stop', async () => {
    const { merge, schedule, reads } = mergeOf(50)
    schedule.start()
    reads.mark()
    // Reads every 300 ms for 3 s: no step meanwhile.
    for (let t = 0; t < 3000; t += 300) {
      await pass(300)
      reads.mark()
    }
    expect(merge.done).toBe(0)
    await pass(MERGE_HOLD_MS - 1)
    expect(merge.done).toBe(0)
    await pass(1)
    await untilIdle()
    expect(merge.done).toBe(50)
  })

  it('stops between steps when a read comes in the middle of a merge', async () => {
    let done = 0
    const reads = ReadMarks.create()
    // The third step is where the operator starts typing.
    const schedule = new MergeSchedule(() => {
      done += 1
      if (done === 3) reads.mark()
      return done < 10
    }, new ReadMarks(reads.buffer))
    schedule.start()
    await pass(MERGE_HOLD_MS - 1)
    expect(done).toBe(3)
    await untilIdle()
    expect(done).toBe(10)
  })

  it('holds off for a while when told to, as the thread does as it starts', async () => {
    const { merge, schedule } = mergeOf(5)
    schedule.hold()
    schedule.start()
    await pass(MERGE_HOLD_MS - 1)
    expect(merge.done).toBe(0)
    await pass(1)
    await untilIdle()
    expect(merge.done).toBe(5)
  })

  it('takes no step once closed', async () => {
    const { merge, schedule, reads } = mergeOf(5)
    schedule.start()
    schedule.close()
    await pass(MERGE_HOLD_MS)
    expect(merge.done).toBe(0)
    reads.mark()
    schedule.start()
    await pass(MERGE_HOLD_MS * 2)
    expect(merge.done).toBe(0)
  })
})
