import type { IpcResult } from '../../../src/shared/ipc/define'
import { JUMP_REST_MS, WindowLoader, type WindowAnswer } from '../../../src/renderer/src/data/window-loader'

/** What the window loader's tests share: a main that answers when told, and waits for the loader's next step. */

export const TOTAL = 10_000

/** A fake main: records every window asked for and answers only when the test says so. */
export function fakeMain(total = TOTAL, tag = '') {
  const pending: { offset: number; limit: number; answer(): void; fail(): void }[] = []
  const fetch = (offset: number, limit: number) =>
    new Promise<IpcResult<WindowAnswer<string>>>((resolve) => {
      pending.push({
        offset,
        limit,
        answer: () => {
          const end = Math.min(total, offset + limit)
          const rows = Array.from({ length: Math.max(0, end - offset) }, (_, i) => `${tag}row-${offset + i}`)
          resolve({ ok: true, value: { rows, total, offset, syncedAt: null } })
        },
        fail: () => resolve({ ok: false, error: { code: 'OFFLINE', message: 'No connection' } })
      })
    })
  return { fetch, pending }
}

/** Lets answers land and the loader ask for what comes next (it asks after the view drew an answer). */
export const settle = async () => {
  await new Promise((r) => setTimeout(r, 5))
  // A timer the loader set while the first wait ran (the next request, after an answer) has then fired too, however
  // late the answer's microtasks ran on a loaded machine.
  await new Promise((r) => setTimeout(r, 0))
}

/** Lets a viewport that jumped rest long enough for its window to be asked for, and that request go out. */
export const rest = async () => {
  await new Promise((r) => setTimeout(r, JUMP_REST_MS))
  await settle()
}

export function loaderOver(main: ReturnType<typeof fakeMain>) {
  const loader = new WindowLoader<string>({ windowSize: 200, prefetch: 60 })
  loader.setViewport(0, 20)
  loader.setQuery(main.fetch)
  return loader
}
