import { describe, expect, it, vi } from 'vitest'
import type { Backend } from '../../../src/main/app/backend'
import type { Handlers } from '../../../src/main/handlers/dispatch'
import { CHANNEL_NAMES } from '../../../src/shared/ipc/contract'

type Handler = (event: unknown, input: unknown) => Promise<unknown>
const registered = new Map<string, Handler>()
vi.mock('electron', () => ({ ipcMain: { handle: (name: string, handler: Handler) => registered.set(name, handler) } }))

const { registerIpc } = await import('../../../src/main/electron/ipc')

const PAGE = 'file:///opt/paydesk/out/renderer/index.html'

describe('registerIpc', () => {
  const calls: unknown[] = []
  const mainFrame = { url: PAGE }
  const webContents = { mainFrame, send: vi.fn() }
  const window = { webContents, isDestroyed: () => false }
  const backend = {
    handlers: {
      'profiles.switch': async (input: unknown) => {
        calls.push(input)
        return { activeProfileId: 'local', profiles: [] }
      }
    } as unknown as Handlers,
    subscribe: () => () => {},
    setForeground: () => {},
    setSuspended: () => {},
    desktop: {} as Backend['desktop'],
    close: async () => {}
  } satisfies Backend
  registerIpc(
    backend,
    () => window as never,
    PAGE,
    () => {}
  )
  const invoke = (event: unknown, input: unknown) => registered.get('profiles.switch')!(event, input)

  it('registers exactly the contract channels', () => {
    expect([...registered.keys()].sort()).toEqual([...CHANNEL_NAMES].sort())
  })

  it('answers the main frame of our window showing our page', async () => {
    const result = await invoke({ sender: webContents, senderFrame: mainFrame }, { id: 'local' })
    expect(result).toMatchObject({ ok: true })
    expect(calls).toEqual([{ id: 'local' }])
  })

  it.each([
    ['a sub-frame of our window', { sender: webContents, senderFrame: { url: PAGE } }],
    ['another webContents', { sender: { mainFrame }, senderFrame: mainFrame }],
    [
      'our window after navigating elsewhere',
      { sender: webContents, senderFrame: { url: 'https://evil.example/' }, swapUrl: true }
    ],
    ['a destroyed frame', { sender: webContents, senderFrame: null }]
  ])('refuses %s, running nothing', async (_case, event) => {
    const before = calls.length
    let result: unknown
    if ('swapUrl' in event) {
      const original = mainFrame.url
      mainFrame.url = 'https://evil.example/'
      result = await invoke({ sender: webContents, senderFrame: mainFrame }, { id: 'local' })
      mainFrame.url = original
    } else {
      result = await invoke(event, { id: 'local' })
    }
    expect(result).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN_SENDER', message: 'This window may not call Paydesk.' }
    })
    expect(calls.length).toBe(before)
  })
})

describe('registerIpc while the backend is still starting', () => {
  it('holds a call from the window until the backend is up, then answers it', async () => {
    registered.clear()
    const mainFrame = { url: PAGE }
    const webContents = { mainFrame, send: vi.fn() }
    let up!: (backend: Backend) => void
    registerIpc(
      new Promise<Backend>((resolve) => (up = resolve)),
      () => ({ webContents, isDestroyed: () => false }) as never,
      PAGE,
      () => {}
    )
    let answered: unknown
    const call = registered.get('profiles.list')!({ sender: webContents, senderFrame: mainFrame }, null).then(
      (result) => (answered = result)
    )
    await new Promise((r) => setTimeout(r, 50))
    expect(answered).toBeUndefined()
    up({
      handlers: { 'profiles.list': async () => ({ activeProfileId: 'local', profiles: [] }) } as unknown as Handlers,
      subscribe: () => () => {},
      setForeground: () => {},
      setSuspended: () => {},
      desktop: {} as Backend['desktop'],
      close: async () => {}
    })
    await call
    expect(answered).toEqual({ ok: true, value: { activeProfileId: 'local', profiles: [] } })
  })
})
