import type { IpcResult } from '../../../src/shared/ipc/define'
import { createQueryClient } from '../../../src/renderer/src/data/query-client'
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

type LoaderOptions<Row> = Omit<ConstructorParameters<typeof WindowLoader<Row>>[0], 'client' | 'channel'>

/** A loader of the transactions channel over a cache of its own, as the app's lists are over the app's. */
export function newLoader<Row = string>(options: Partial<LoaderOptions<Row>> = {}, client = createQueryClient()) {
  const loader = new WindowLoader<Row>({
    client,
    channel: 'transactions.query',
    windowSize: 200,
    prefetch: 60,
    ...options
  })
  loader.setViewport(0, 20)
  return loader
}

export function loaderOver(main: ReturnType<typeof fakeMain>) {
  const loader = newLoader()
  loader.setQuery(main.fetch)
  return loader
}

/** The key a view gives a search: its input as JSON (the tests' searches are plain strings). */
export const keyOf = (search: string) => JSON.stringify({ search })

/** A fake main over named lists: `answer(i)` answers the i-th pending request from `lists[key]` as it is now. */
export function fakeLists(lists: Record<string, string[]>) {
  const pending: { key: string; offset: number; limit: number; answer(): void }[] = []
  const fetchOf = (key: string) => (offset: number, limit: number) =>
    new Promise<IpcResult<WindowAnswer<string>>>((resolve) => {
      pending.push({
        key,
        offset,
        limit,
        answer: () => {
          const all = lists[key]!
          resolve({
            ok: true,
            value: { rows: all.slice(offset, offset + limit), total: all.length, offset, syncedAt: null }
          })
        }
      })
    })
  return { pending, fetchOf }
}

export const rowsOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

/** Rows holding the needle, as main would answer (prefix-free strings: 'ab' narrows to the rows containing it). */
const narrowStrings = (fromKey: string, rows: string[], to: string) => {
  const from = (JSON.parse(fromKey) as { search: string }).search
  return to.startsWith(from) && from !== '' ? rows.filter((r) => r.includes(to)) : null
}

/** A loader whose queries are searches named by their string, each a list of `main`. */
export function keyedLoader(main: ReturnType<typeof fakeLists>, options: Partial<LoaderOptions<string>> = {}) {
  const client = createQueryClient()
  const loader = newLoader({ firstMargin: 10, ...options }, client)
  const query = (key: string, options: { narrow?: boolean } = {}) =>
    loader.setQuery(main.fetchOf(key), {
      fromTop: true,
      key: keyOf(key),
      ...(options.narrow ? { narrow: (from: string, rows: string[]) => narrowStrings(from, rows, key) } : {})
    })
  const answerAll = async () => {
    await settle() // main is asked in the next task after an instant answer
    while (main.pending.length) {
      main.pending.shift()!.answer()
      await settle()
    }
  }
  return { loader, client, query, answerAll }
}
