import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Appearance } from '../../../src/shared/appearance'

// A radio button in Settings → Appearance answers the click at once. Main's answers come later, and only the answer
// to the latest call may change what is shown: the start's load, answering after a click, must not undo the choice.

type Pending = { channel: string; resolve: (r: unknown) => void }
const pending: Pending[] = []

beforeAll(() => {
  const paydesk = {
    invoke: (channel: string) => new Promise((resolve) => pending.push({ channel, resolve })),
    on: () => () => {}
  }
  vi.stubGlobal('window', { paydesk, localStorage: undefined })
  vi.stubGlobal('document', { documentElement: { dataset: {} } })
})
afterAll(() => vi.unstubAllGlobals())

const local: Appearance = { theme: 'system', timeZone: 'local' }
const utc: Appearance = { theme: 'system', timeZone: 'utc' }

/** What the page shows: the appearance in the query cache, and the zone every time is worded in. */
async function shown() {
  const { queryClient } = await import('../../../src/renderer/src/data/query-client')
  const { currentTimeZone } = await import('../../../src/renderer/src/format/time')
  return { appearance: queryClient.getQueryData(['appearance.get', null]), timeZone: currentTimeZone() }
}

it('keeps the operator’s choice when the start’s load answers after the click', async () => {
  const { bootAppearance, chooseAppearance } = await import('../../../src/renderer/src/data/appearance')
  const loading = bootAppearance()
  const choosing = chooseAppearance(utc)
  expect((await shown()).appearance).toEqual(utc)

  const [load, choose] = pending.splice(0)
  expect([load!.channel, choose!.channel]).toEqual(['appearance.get', 'appearance.set'])
  choose!.resolve({ ok: true, value: utc })
  expect(await choosing).toBeNull()
  // The saved value main read before the click arrives last.
  load!.resolve({ ok: true, value: local })
  await loading
  expect(await shown()).toEqual({ appearance: utc, timeZone: 'utc' })
})

it('shows the later of two quick choices, whatever order main answers in', async () => {
  const { chooseAppearance } = await import('../../../src/renderer/src/data/appearance')
  const first = chooseAppearance(local)
  const second = chooseAppearance(utc)
  const [a, b] = pending.splice(0)
  b!.resolve({ ok: true, value: utc })
  await second
  a!.resolve({ ok: true, value: local })
  await first
  expect((await shown()).appearance).toEqual(utc)
})

it('puts the previous choice back when main refuses to keep the new one', async () => {
  const { chooseAppearance } = await import('../../../src/renderer/src/data/appearance')
  const refused = chooseAppearance(local)
  expect((await shown()).appearance).toEqual(local)
  pending.splice(0)[0]!.resolve({ ok: false, error: { code: 'IO', message: 'The disk is full.' } })
  expect(await refused).toMatchObject({ message: 'The disk is full.' })
  expect((await shown()).appearance).toEqual(utc)
})
