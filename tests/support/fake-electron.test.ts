import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createFakeElectron, type FakeElectron } from './fake-electron/fake.mjs'

// The Electron fake is the only witness of the desktop app on machines without the Electron binary: each rule it keeps
// is a rule Electron keeps (the sources are cited in fake-electron/lifecycle.mjs), and each is proved here.

const fresh = (env: Record<string, string> = {}) =>
  createFakeElectron({ env: { FAKE_ELECTRON_USER_DATA: '/u', ...env } })

/** Runs `call` and returns what it threw: its type and message. */
function thrown(call: () => unknown): { type: string; message: string } | null {
  try {
    call()
    return null
  } catch (error) {
    return { type: (error as Error).constructor.name, message: (error as Error).message }
  }
}

describe('before ready, the fake refuses what Electron refuses, with Electron’s error', () => {
  const refusals: Array<[string, (m: FakeElectron['modules']) => unknown, string, string]> = [
    [
      'session.defaultSession',
      (m) => m.session.defaultSession,
      'TypeError',
      'Session can only be received when app is ready'
    ],
    [
      'session.fromPartition',
      (m) => m.session.fromPartition(''),
      'TypeError',
      'Session can only be received when app is ready'
    ],
    [
      'protocol.handle',
      (m) => m.protocol.handle('app', () => new Response('')),
      'TypeError',
      'Session can only be received when app is ready'
    ],
    [
      'net.fetch',
      (m) => m.net.fetch('file:///etc/hostname'),
      'TypeError',
      'Session can only be received when app is ready'
    ],
    ['new BrowserWindow', (m) => new m.BrowserWindow(), 'Error', 'Cannot create BrowserWindow before app is ready'],
    ['new Tray', (m) => new m.Tray(), 'Error', 'Cannot create Tray before app is ready'],
    ['new Notification', (m) => new m.Notification(), 'Error', 'Cannot create Notification before app is ready'],
    [
      'screen',
      (m) => m.screen.getPrimaryDisplay(),
      'Error',
      "The 'screen' module can't be used before the app 'ready' event"
    ],
    [
      'powerMonitor.on',
      (m) => m.powerMonitor.on('suspend', () => {}),
      'Error',
      "The 'powerMonitor' module can't be used before the app 'ready' event"
    ],
    [
      'utilityProcess.fork',
      (m) => m.utilityProcess.fork('/x.js'),
      'TypeError',
      'utilityProcess cannot be created before app is ready.'
    ]
  ]

  it.each(refusals)('%s', (_name, call, type, message) => {
    const fake = fresh()
    expect(thrown(() => call(fake.modules))).toEqual({ type, message })
    expect(fake.report.refused).toHaveLength(1)
  })

  it('lets through what Electron allows before ready', () => {
    const { modules: m, report } = fresh()
    expect(m.app.requestSingleInstanceLock()).toBe(true)
    expect(m.app.getPath('userData')).toBe('/u')
    m.app.setPath('sessionData', '/s')
    expect(m.app.getPath('sessionData')).toBe('/s')
    expect(m.Notification.isSupported()).toBe(false)
    expect(m.nativeTheme.shouldUseDarkColors).toBe(false)
    m.Menu.setApplicationMenu({ items: [] })
    m.dialog.showErrorBox('Paydesk', 'early')
    m.protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true } }])
    expect(report.refused).toEqual([])
  })
})

describe('after ready', () => {
  it('refuses what must come before: declaring privileged schemes, and moving the session’s data', () => {
    const fake = fresh()
    fake.life.launch()
    expect(thrown(() => fake.modules.protocol.registerSchemesAsPrivileged([{ scheme: 'app' }]))).toEqual({
      type: 'Error',
      message: 'protocol.registerSchemesAsPrivileged should be called before app is ready'
    })
    expect(thrown(() => fake.modules.app.setPath('userData', '/elsewhere'))?.message).toMatch(/after ready/)
    expect(fake.report.refused).toEqual(['lateSchemes'])
  })

  it('allows the window, the tray, notifications, the screen, the power monitor and the session', () => {
    const { modules: m, life, report } = fresh()
    life.launch()
    expect(thrown(() => new m.BrowserWindow({}))).toBeNull()
    expect(thrown(() => new m.Tray('icon'))).toBeNull()
    expect(thrown(() => new m.Notification())).toBeNull()
    expect(thrown(() => m.screen.getPrimaryDisplay())).toBeNull()
    expect(thrown(() => m.powerMonitor.on('resume', () => {}))).toBeNull()
    expect(thrown(() => m.session.defaultSession.webRequest)).toBeNull()
    expect(report.refused).toEqual([])
  })
})

describe('the launch', () => {
  it('runs will-finish-launching, then a macOS launch link (open-url), then ready, resolving whenReady', async () => {
    const { modules: m, life } = fresh()
    const order: string[] = []
    m.app.on('will-finish-launching', () => order.push('will-finish-launching'))
    m.app.on('open-url', (_event: never, url: never) => order.push(`open-url ${url}`))
    m.app.on('ready', () => order.push(`ready ${m.app.isReady()}`))
    const ready = m.app.whenReady().then(() => order.push('whenReady'))
    expect(m.app.isReady()).toBe(false)
    life.launch({ openUrl: 'paydesk://approvals/Transaction:1' })
    await ready
    expect(order).toEqual([
      'will-finish-launching',
      'open-url paydesk://approvals/Transaction:1',
      'ready true',
      'whenReady'
    ])
  })

  it('refuses the single-instance lock while another instance holds it', () => {
    expect(fresh({ FAKE_ELECTRON_LOCK_HELD: '1' }).modules.app.requestSingleInstanceLock()).toBe(false)
  })
})

describe('a custom scheme', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-fake-electron-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const page = '<html><script type="module" src="./assets/a.js"></script><link rel="icon" href="data:,"></html>'

  function served(block: (url: string) => boolean = () => false) {
    const fake = fresh()
    fake.modules.protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true } }])
    fake.life.launch()
    const session = fake.modules.session.defaultSession as unknown as {
      webRequest: { onBeforeRequest(h: (d: { url: string }, cb: (a: { cancel: boolean }) => void) => void): void }
    }
    session.webRequest.onBeforeRequest(({ url }, callback) => callback({ cancel: block(url) }))
    fake.modules.protocol.handle('app', (request) => {
      const { pathname } = new URL(request.url)
      if (pathname === '/index.html') return new Response(page, { headers: { 'content-type': 'text/html' } })
      if (pathname === '/assets/a.js') return new Response('1', { headers: { 'content-type': 'text/javascript' } })
      return new Response('', { status: 404 })
    })
    return fake
  }

  it('loads the page through its handler, then every file the page names, each offered to webRequest first', async () => {
    const fake = served((url) => url.endsWith('a.js'))
    const window = new fake.modules.BrowserWindow({}) as { loadURL(url: string): Promise<void> }
    await window.loadURL('app://paydesk/index.html')
    expect(fake.report.page).toMatchObject({
      status: 200,
      headers: { 'content-type': 'text/html' },
      privileges: { standard: true, secure: true },
      assets: [{ url: 'app://paydesk/assets/a.js', status: 'blocked' }]
    })
  })

  it('refuses a second handler for the scheme, as Electron does', () => {
    const fake = served()
    expect(thrown(() => fake.modules.protocol.handle('app', () => new Response('')))?.message).toBe(
      'Failed to register protocol: app'
    )
  })

  it('fails to load a page whose scheme nobody handles', async () => {
    const fake = fresh()
    fake.life.launch()
    const window = new fake.modules.BrowserWindow({}) as { loadURL(url: string): Promise<void> }
    await expect(window.loadURL('app://paydesk/index.html')).rejects.toThrow('ERR_UNKNOWN_URL_SCHEME')
  })

  it('net.fetch reads file: URLs after ready, and fails on a missing file', async () => {
    const fake = fresh()
    fake.life.launch()
    writeFileSync(join(dir, 'f.txt'), 'hello')
    const response = await fake.modules.net.fetch(pathToFileURL(join(dir, 'f.txt')).href)
    expect(await response.text()).toBe('hello')
    await expect(fake.modules.net.fetch(pathToFileURL(join(dir, 'none')).href)).rejects.toThrow('ERR_FILE_NOT_FOUND')
  })
})

describe('a utility process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-fake-utility-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('sees what an Electron utility process sees: process.parentPort (messages queued until heard), no process.send', async () => {
    // The child says it is up, then answers the message that follows with what it sees. It listens on parentPort only
    // once that message has reached the process (the fake's Node channel underneath, heard after the fake's own
    // listener, and registered before the parent could send): the message was queued until then.
    const child = join(dir, 'child.mjs')
    writeFileSync(
      child,
      `process.parentPort.postMessage('up')
      process.once('message', () => setImmediate(() => process.parentPort.on('message', (e) =>
        process.parentPort.postMessage({
          got: e.data, ports: e.ports, send: typeof process.send, argv: process.execArgv.join(' ')
        }))))`
    )
    const fake = fresh()
    fake.life.launch()
    const proc = fake.modules.utilityProcess.fork(child, [], { stdio: 'inherit', serviceName: 'probe' })
    const answer = new Promise((resolve) =>
      proc.on('message', (m) => {
        if (m === 'up') proc.postMessage({ hello: 1 })
        else resolve(m)
      })
    )
    expect(await answer).toEqual({
      got: { hello: 1 },
      ports: [],
      send: 'undefined',
      argv: expect.not.stringContaining('register.mjs')
    })
    const exited = new Promise((resolve) => proc.on('exit', resolve))
    expect(proc.kill()).toBe(true)
    expect(await exited).toBe(1)
  })

  it('refuses a stdin other than ignore, as Electron documents', () => {
    const fake = fresh()
    fake.life.launch()
    expect(
      thrown(() => fake.modules.utilityProcess.fork('/x.js', [], { stdio: ['pipe', 'inherit', 'inherit'] }))
    ).toEqual({
      type: 'Error',
      message: "fake-electron: utilityProcess stdin must be 'ignore', not 'pipe'"
    })
  })
})
