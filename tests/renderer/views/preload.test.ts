import { describe, expect, it } from 'vitest'
import { preloadInTurn } from '../../../src/renderer/src/views/preload'

/** A view whose download the test finishes (or fails) by hand, recording when it started. */
function view(name: string, started: string[]) {
  let settle!: (ok: boolean) => void
  const done = new Promise<boolean>((resolve) => (settle = resolve))
  return {
    preload: () => {
      started.push(name)
      return done.then((ok) => (ok ? name : Promise.reject(new Error(`${name} failed`))))
    },
    finish: () => settle(true),
    fail: () => settle(false)
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('preloadInTurn', () => {
  it('fetches one view at a time, going on past a failed one', async () => {
    const started: string[] = []
    const [a, b, c] = [view('a', started), view('b', started), view('c', started)]
    const all = preloadInTurn([a, b, c], () => false)
    await tick()
    expect(started).toEqual(['a'])
    a.fail()
    await tick()
    expect(started).toEqual(['a', 'b'])
    b.finish()
    await tick()
    expect(started).toEqual(['a', 'b', 'c'])
    c.finish()
    await all
  })

  it('stops fetching once cancelled (the page went away)', async () => {
    const started: string[] = []
    let cancelled = false
    const [a, b] = [view('a', started), view('b', started)]
    const all = preloadInTurn([a, b], () => cancelled)
    await tick()
    cancelled = true
    a.finish()
    await all
    expect(started).toEqual(['a'])
  })
})
