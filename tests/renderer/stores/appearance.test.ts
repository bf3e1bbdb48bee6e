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

it('keeps the operator’s choice when the start’s load answers after the click', async () => {
  const { useAppearance } = await import('../../../src/renderer/src/stores/appearance')
  const loading = useAppearance.getState().load()
  const choosing = useAppearance.getState().choose(utc)
  expect(useAppearance.getState().appearance).toEqual(utc)

  const [load, choose] = pending.splice(0)
  expect([load!.channel, choose!.channel]).toEqual(['appearance.get', 'appearance.set'])
  choose!.resolve({ ok: true, value: utc })
  expect(await choosing).toBeNull()
  // The saved value main read before the click arrives last.
  load!.resolve({ ok: true, value: local })
  await loading
  expect(useAppearance.getState().appearance).toEqual(utc)
})

it('shows the later of two quick choices, whatever order main answers in', async () => {
  const { useAppearance } = await import('../../../src/renderer/src/stores/appearance')
  const first = useAppearance.getState().choose(local)
  const second = useAppearance.getState().choose(utc)
  const [a, b] = pending.splice(0)
  b!.resolve({ ok: true, value: utc })
  await second
  a!.resolve({ ok: true, value: local })
  await first
  expect(useAppearance.getState().appearance).toEqual(utc)
})

it('puts the previous choice back when main refuses to keep the new one', async () => {
  const { useAppearance } = await import('../../../src/renderer/src/stores/appearance')
  const refused = useAppearance.getState().choose(local)
  expect(useAppearance.getState().appearance).toEqual(local)
  pending.splice(0)[0]!.resolve({ ok: false, error: { code: 'IO', message: 'The disk is full.' } })
  expect(await refused).toMatchObject({ message: 'The disk is full.' })
  expect(useAppearance.getState().appearance).toEqual(utc)
})
