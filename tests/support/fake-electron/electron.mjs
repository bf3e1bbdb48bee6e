// A tiny recording stand-in for the parts of Electron that Paydesk's main process uses. After the window has loaded,
// it runs the recorded security hooks against probe inputs and writes everything to $FAKE_ELECTRON_REPORT.
import { fork } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { EventEmitter } from 'node:events'
import { getPriority } from 'node:os'

const report = {
  windows: [],
  ipcChannels: [],
  permissionAnswers: [],
  probes: {},
  utilityProcesses: [],
  protocols: [],
  badgeCounts: [],
  trays: [],
  appMenu: null
}
const appEvents = new EventEmitter()
let permissionRequestHandler = null
let permissionCheckHandler = null
let beforeRequest = null
const opened = []

class FakeWebContents extends EventEmitter {
  constructor() {
    super()
    this.mainFrame = { url: '' }
    this.windowOpenHandler = null
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler
  }
  send() {}
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super()
    report.windows.push(options)
    this.webContents = new FakeWebContents()
    appEvents.emit('web-contents-created', {}, this.webContents)
  }
  async loadURL(url) {
    this.webContents.mainFrame.url = url
    report.loadedUrl = url
    void started().then(() => finish(this))
  }
  isDestroyed() {
    return false
  }
  isMinimized() {
    return false
  }
  show() {}
  hide() {}
  focus() {}
  restore() {}
  setBackgroundColor(color) {
    report.backgroundColors = [...(report.backgroundColors ?? []), color]
  }
}

/**
 * Main loads its window while the backend starts, and makes its tray (then the close policy, in the same turn) once the
 * backend is up; the Local sandbox's process is started alongside, behind the first answers: the probes wait for both
 * (the process's first message), or give up after 30 s so that what is missing shows in the report.
 */
async function started() {
  const deadline = Date.now() + 30_000
  const up = () =>
    report.trays.length > 0 &&
    report.utilityProcesses.length > 0 &&
    report.utilityProcesses.every((p) => p.niceness !== undefined)
  while (!up() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  await new Promise((r) => setTimeout(r, 50))
}

async function finish(win) {
  const contents = win.webContents
  const deny = (url) => contents.windowOpenHandler?.({ url })
  report.probes.windowOpenHttps = deny('https://grid.lightspark.com/platform-overview')
  report.probes.windowOpenOtherHost = deny('https://example.com/help')
  report.probes.windowOpenPlainHttp = deny('http://grid.lightspark.com/platform-overview')
  report.probes.windowOpenFile = deny('file:///etc/passwd')
  report.probes.openedExternally = [...opened]
  const navigation = (url) => {
    let prevented = false
    contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url)
    return prevented
  }
  report.probes.navigateAwayPrevented = navigation('https://evil.example/')
  report.probes.navigateSelfPrevented = navigation(report.loadedUrl)
  let webviewPrevented = false
  contents.emit('will-attach-webview', { preventDefault: () => (webviewPrevented = true) })
  report.probes.webviewPrevented = webviewPrevented
  for (const permission of ['notifications', 'media', 'geolocation']) {
    await new Promise((done) =>
      permissionRequestHandler?.(contents, permission, (granted) => {
        report.permissionAnswers.push({ permission, granted })
        done()
      })
    )
  }
  report.probes.permissionCheck = permissionCheckHandler?.(contents, 'media')
  const request = (url) => new Promise((done) => beforeRequest({ url }, (answer) => done(answer.cancel)))
  report.probes.cancelRemoteRequest = await request('https://api.lightspark.com/grid/2025-10-13/customers')
  report.probes.cancelOwnFile = await request(report.loadedUrl)
  // Closing the window: with no approval rules on, nothing keeps Paydesk in the tray.
  let closePrevented = false
  win.emit('close', { preventDefault: () => (closePrevented = true) })
  report.probes.closePrevented = closePrevented
  writeFileSync(process.env.FAKE_ELECTRON_REPORT, JSON.stringify(report))
  process.exit(0)
}

export const app = {
  requestSingleInstanceLock: () => true,
  isPackaged: process.env.FAKE_ELECTRON_PACKAGED === '1',
  exit: (code) => process.exit(code),
  getPath: () => process.env.FAKE_ELECTRON_USER_DATA,
  getVersion: () => '0.0.0-test',
  whenReady: () => Promise.resolve(),
  on: (event, listener) => appEvents.on(event, listener),
  quit: () => process.exit(0),
  setAsDefaultProtocolClient: (protocol) => report.protocols.push(protocol) > 0,
  setBadgeCount: (count) => report.badgeCounts.push(count) > 0,
  setAboutPanelOptions: (options) => (report.aboutPanel = options),
  showAboutPanel() {}
}

/** Menus as plain data: labels and roles, submenus nested. */
const describeItems = (items) =>
  items.map((i) => ({
    ...(i.label !== undefined && { label: i.label }),
    ...(i.role !== undefined && { role: i.role }),
    ...(i.type !== undefined && { type: i.type }),
    ...(i.checked !== undefined && { checked: i.checked }),
    ...(Array.isArray(i.submenu) && { submenu: describeItems(i.submenu) })
  }))
export const Menu = {
  buildFromTemplate: (template) => ({ items: describeItems(template), popup() {} }),
  setApplicationMenu: (menu) => (report.appMenu = menu.items)
}
export class Tray extends EventEmitter {
  constructor(image) {
    super()
    this.state = { image, tooltip: '', menu: [] }
    report.trays.push(this.state)
  }
  setToolTip(tooltip) {
    this.state.tooltip = tooltip
  }
  setContextMenu(menu) {
    this.state.menu = menu.items
  }
  isDestroyed() {
    return false
  }
  destroy() {}
}
export const nativeTheme = Object.assign(new EventEmitter(), {
  shouldUseDarkColors: process.env.FAKE_ELECTRON_DARK === '1'
})
export const clipboard = { writeText() {} }
export const nativeImage = { createFromPath: (path) => ({ resize: (size) => ({ path, size }) }) }

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (h) => (permissionRequestHandler = h),
    setPermissionCheckHandler: (h) => (permissionCheckHandler = h),
    webRequest: { onBeforeRequest: (h) => (beforeRequest = h) }
  }
}

export const ipcMain = { handle: (channel) => report.ipcChannels.push(channel) }
export const shell = { openExternal: async (url) => opened.push(url) }
export const powerMonitor = { on() {} }
export const dialog = { showErrorBox: (title, message) => report.errors?.push({ title, message }) }
export class Notification extends EventEmitter {
  static isSupported() {
    return false
  }
  show() {}
}
/** utilityProcess.fork, as a Node fork of the same module with Electron's event shapes; records what was started. */
export const utilityProcess = {
  fork(modulePath, args = [], options = {}) {
    const entry = { modulePath, exists: existsSync(modulePath), serviceName: options.serviceName }
    report.utilityProcesses.push(entry)
    const child = fork(modulePath, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' })
    const events = new EventEmitter()
    child.on('message', (m) => {
      // The priority main gave the process once it was spawned, as the OS reports it.
      entry.niceness ??= getPriority(child.pid)
      events.emit('message', m)
    })
    child.on('exit', (code) => events.emit('exit', code ?? 1))
    child.on('spawn', () => events.emit('spawn'))
    return {
      get pid() {
        return child.pid
      },
      postMessage: (m) => child.send(m),
      on: (event, listener) => events.on(event, listener),
      once: (event, listener) => events.once(event, listener),
      kill: () => child.kill('SIGKILL')
    }
  }
}

export default {
  app,
  session,
  ipcMain,
  shell,
  powerMonitor,
  dialog,
  Notification,
  BrowserWindow,
  utilityProcess,
  Menu,
  Tray,
  nativeTheme,
  clipboard,
  nativeImage
}
