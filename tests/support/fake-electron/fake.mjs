// A recording stand-in for the parts of Electron that Paydesk's main process uses, as strict as Electron about when each
// may be called (lifecycle.mjs). `createFakeElectron` builds a fresh one, so the fake's own test can drive its launch;
// electron.mjs is the one main imports.
import { fork } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { existsSync } from 'node:fs'
import { getPriority } from 'node:os'
import { createLifecycle } from './lifecycle.mjs'
import { createProtocols } from './protocol.mjs'

/** Menus as plain data: labels and roles, submenus nested. */
const describeItems = (items) =>
  items.map((i) => ({
    ...(i.label !== undefined && { label: i.label }),
    ...(i.role !== undefined && { role: i.role }),
    ...(i.type !== undefined && { type: i.type }),
    ...(i.checked !== undefined && { checked: i.checked }),
    ...(Array.isArray(i.submenu) && { submenu: describeItems(i.submenu) })
  }))

export function newReport() {
  return {
    windows: [],
    ipcChannels: [],
    utilityProcesses: [],
    /** gate.linkChanged events main sent to the window, in order. */
    gateLinks: [],
    protocols: [],
    badgeCounts: [],
    trays: [],
    appMenu: null,
    errors: [],
    opened: [],
    /** Every call Electron would have refused, by rule (lifecycle.mjs), in order. */
    refused: []
  }
}

/**
 * `env` configures it (FAKE_ELECTRON_*), `report` receives what main passed, `onLoad(window)` runs once a window's
 * page has loaded, `onQuit(code)` when main quits or exits, `onChange()` after a tray is made or a utility process
 * first answers.
 */
export function createFakeElectron({
  env = {},
  report = newReport(),
  onLoad = () => {},
  onQuit = () => {},
  onChange = () => {}
} = {}) {
  const life = createLifecycle({ onRefuse: (rule) => report.refused.push(rule) })
  const handlers = { permissionRequest: null, permissionCheck: null, beforeRequest: null }
  const protocols = createProtocols(life, { beforeRequest: () => handlers.beforeRequest })
  const paths = new Map()
  const ipcHandlers = new Map()

  const defaultSession = {
    setPermissionRequestHandler: (h) => (handlers.permissionRequest = h),
    setPermissionCheckHandler: (h) => (handlers.permissionCheck = h),
    webRequest: { onBeforeRequest: (h) => (handlers.beforeRequest = h) },
    protocol: protocols.sessionProtocol,
    fetch: protocols.fetch
  }
  const session = {
    fromPartition(partition) {
      life.requireReady('session')
      if (partition !== '') throw new Error('fake-electron: only the default session is modelled')
      return defaultSession
    },
    get defaultSession() {
      // lib/browser/api/session.ts: `get defaultSession () { return fromPartition('') }`.
      return session.fromPartition('')
    }
  }

  class FakeWebContents extends EventEmitter {
    constructor() {
      super()
      this.mainFrame = { url: '' }
      this.windowOpenHandler = null
    }
    setWindowOpenHandler(handler) {
      this.windowOpenHandler = handler
    }
    /** What main tells the page: the gate links' states are kept (they name no secret), the rest is dropped. */
    send(_channel, event, payload) {
      if (event !== 'gate.linkChanged') return
      report.gateLinks.push(payload)
      onChange()
    }
  }

  class BrowserWindow extends EventEmitter {
    constructor(options) {
      life.requireReady('browserWindow')
      super()
      report.windows.push(options)
      this.webContents = new FakeWebContents()
      life.events.emit('web-contents-created', {}, this.webContents)
    }
    /** Loads the page as Chromium would: through the scheme's handler, the page and then every file it names. */
    async loadURL(url) {
      report.loadedUrl = url
      report.page = await protocols.loadPage(url)
      this.webContents.mainFrame.url = url
      onLoad(this)
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

  class Tray extends EventEmitter {
    constructor(image) {
      life.requireReady('tray')
      super()
      this.state = { image, tooltip: '', menu: [] }
      report.trays.push(this.state)
      onChange()
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

  class Notification extends EventEmitter {
    static isSupported() {
      return false
    }
    constructor() {
      life.requireReady('notification')
      super()
    }
    show() {}
  }

  class PowerMonitor extends EventEmitter {
    constructor() {
      super()
      // Every listener asks for the native monitor (lib/browser/api/power-monitor.ts creates it on the first one).
      this.on('newListener', () => life.requireReady('powerMonitor'))
    }
  }

  // lib/browser/api/screen.ts: a proxy whose first property read creates the native screen, which refuses before ready.
  const screen = new Proxy(
    {},
    {
      get(_target, prop) {
        life.requireReady('screen')
        if (prop === 'getPrimaryDisplay')
          return () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor: 1 })
        return undefined
      }
    }
  )

  const app = Object.assign(life.events, {
    isReady: life.isReady,
    whenReady: life.whenReady,
    // docs/api/app.md: false when another instance holds the lock; "you can assume that another instance of your
    // application is already running with the lock and exit immediately". Callable before ready.
    requestSingleInstanceLock: () => env.FAKE_ELECTRON_LOCK_HELD !== '1',
    isPackaged: env.FAKE_ELECTRON_PACKAGED === '1',
    exit: (code = 0) => onQuit(code),
    quit: () => {
      report.quit = true
      onQuit(0)
    },
    // docs/api/app.md: paths may be read before ready (the per-user folder is where the log and the data lock live).
    getPath: (name) => paths.get(name) ?? env.FAKE_ELECTRON_USER_DATA,
    setPath(name, path) {
      // docs/api/app.md, setPath: the session's data follows `sessionData` (userData by default) only when it is
      // overridden "before the ready event": later, Electron takes it silently and keeps the old folder. Stricter
      // than Electron on purpose: a silent no-op is a bug the fake should show.
      if (life.isReady() && (name === 'userData' || name === 'sessionData'))
        throw new Error(`fake-electron: app.setPath('${name}') after ready leaves the session's data where it was`)
      paths.set(name, path)
    },
    getVersion: () => '0.0.0-test',
    setAppUserModelId: (id) => (report.appUserModelId = id),
    setAsDefaultProtocolClient: (protocol) => report.protocols.push(protocol) > 0,
    setBadgeCount: (count) => report.badgeCounts.push(count) > 0,
    setAboutPanelOptions: (options) => (report.aboutPanel = options),
    showAboutPanel() {}
  })

  return {
    life,
    report,
    handlers,
    protocols,
    /** Calls main's handler for `channel` as a renderer frame would (`event` carries sender and senderFrame). */
    invokeIpc: async (channel, event, input) => ipcHandlers.get(channel)?.(event, input),
    modules: {
      app,
      session,
      protocol: protocols.protocol,
      net: protocols.net,
      BrowserWindow,
      Tray,
      Notification,
      powerMonitor: new PowerMonitor(),
      screen,
      // No ready check in lib/browser/api/menu.ts; Electron sets its default menu at ready only when none was set.
      Menu: {
        buildFromTemplate: (template) => ({ items: describeItems(template), popup() {} }),
        setApplicationMenu: (menu) => (report.appMenu = menu?.items ?? null)
      },
      // No ready check in shell/browser/api/electron_api_native_theme.cc (NativeTheme::Create).
      nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: env.FAKE_ELECTRON_DARK === '1' }),
      clipboard: { writeText() {} },
      nativeImage: { createFromPath: (path) => ({ resize: (size) => ({ path, size }) }) },
      ipcMain: {
        handle(channel, handler) {
          // lib/browser/ipc-main-impl.ts refuses a second handler for a channel.
          if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
          ipcHandlers.set(channel, handler)
          report.ipcChannels.push(channel)
        }
      },
      shell: { openExternal: async (url) => void report.opened.push(url) },
      dialog: {
        // docs/api/dialog.md: showErrorBox "can be called safely before the ready event" (on Linux it then goes to
        // stderr).
        showErrorBox: (title, message) => report.errors.push({ title, message }),
        showSaveDialog: async () => ({ canceled: true })
      },
      utilityProcess: {
        fork(modulePath, args = [], options = {}) {
          life.requireReady('utilityProcess')
          return forkUtility(report, modulePath, args, options, onChange)
        }
      }
    }
  }
}

/**
 * docs/api/utility-process.md, `stdio`: "Currently this option only supports configuring stdout and stderr to either
 * pipe, inherit or ignore. Configuring stdin to any property other than ignore is not supported and will result in an
 * error"; a string stands for [ignore, it, it], and the default is inherit.
 */
function utilityStdio(stdio = 'inherit') {
  const modes = ['pipe', 'inherit', 'ignore']
  const [stdin, stdout, stderr] = typeof stdio === 'string' ? ['ignore', stdio, stdio] : stdio
  if (stdin !== 'ignore') throw new Error(`fake-electron: utilityProcess stdin must be 'ignore', not '${stdin}'`)
  for (const mode of [stdout, stderr])
    if (!modes.includes(mode)) throw new Error(`fake-electron: utilityProcess stdout/stderr '${mode}' is not supported`)
  return ['ignore', stdout, stderr, 'ipc']
}

/**
 * utilityProcess.fork, as a Node fork of the same module with Electron's event shapes; records what was started. The
 * child is made to look like a utility process (utility-child.mjs: process.parentPort, no process.send), and is started
 * with only the flags it was given, not the fake main's `--import` (docs/api/utility-process.md: `execArgv`, "List of
 * string arguments passed to the executable").
 */
function forkUtility(report, modulePath, args, options, onChange) {
  const stdio = utilityStdio(options.stdio)
  const entry = { modulePath, exists: existsSync(modulePath), serviceName: options.serviceName, stdio: options.stdio }
  report.utilityProcesses.push(entry)
  const child = fork(modulePath, args, {
    stdio,
    serialization: 'advanced',
    execArgv: [...(options.execArgv ?? []), '--import', new URL('./utility-child.mjs', import.meta.url).href],
    ...(options.env !== undefined && { env: options.env }),
    ...(options.cwd !== undefined && { cwd: options.cwd })
  })
  const events = new EventEmitter()
  child.on('message', (m) => {
    // The priority main gave the process once it was spawned, as the OS reports it.
    if (entry.niceness === undefined) {
      entry.niceness = getPriority(child.pid)
      onChange()
    }
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
    // docs/api/utility-process.md, child.kill(): "Terminates the process gracefully. On POSIX, it uses SIGTERM";
    // "returns true if the kill is successful, and false otherwise".
    kill: () => child.kill('SIGTERM')
  }
}
