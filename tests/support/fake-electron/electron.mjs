// The `electron` module the built main process imports under test (register.mjs): the strict fake of fake.mjs, launched
// as Electron launches an app. After the window has loaded, it runs the recorded security hooks against probe inputs
// and writes everything to $FAKE_ELECTRON_REPORT; if main quits or dies first, it writes what it had.
import { writeFileSync } from 'node:fs'
import { createFakeElectron } from './fake.mjs'

const env = process.env
const fake = createFakeElectron({
  env,
  onLoad: (win) => void started().then(() => finish(win)),
  onQuit: quit,
  onChange: () => checkUp()
})
const { report, handlers, protocols, invokeIpc } = fake

let written = false
function writeReport(finished) {
  written = true
  writeFileSync(env.FAKE_ELECTRON_REPORT, JSON.stringify({ ...report, finished }))
}
// Main may die before it could quit (a throw before its crash handler is installed): the report still says so.
process.on('exit', (code) => {
  if (written) return
  report.exitCode = code
  writeReport(false)
})

function quit(code) {
  report.exitCode = code
  writeReport(false)
  process.exit(code)
}

// Electron emits `ready` once main's first synchronous run has returned: whatever main calls in that run, it calls
// before ready.
setImmediate(() => fake.life.launch({ openUrl: env.FAKE_ELECTRON_OPEN_URL }))

/**
 * Main loads its window while the backend starts, and makes its tray (then the close policy, in the same turn) once the
 * backend is up; the Local sandbox's process is started alongside, behind the first answers: the probes wait for both
 * (the process's first message). With FAKE_ELECTRON_WAIT_FOR_LOCAL_GATE=1 they also wait for the Local profile's own
 * gate (started once the sandbox answers) to be followed live. If that never comes, the report is written after 30 s
 * (90 s when waiting for the gate) so that what is missing shows.
 */
const waitForGate = env.FAKE_ELECTRON_WAIT_FOR_LOCAL_GATE === '1'
let checkUp = () => {}
const up = () =>
  report.trays.length > 0 &&
  report.utilityProcesses.length > 0 &&
  report.utilityProcesses.every((p) => p.niceness !== undefined) &&
  (!waitForGate || report.gateLinks.some((l) => l.managed && l.state === 'live'))
async function started() {
  await new Promise((resolve) => {
    checkUp = () => up() && resolve()
    checkUp()
    setTimeout(resolve, waitForGate ? 90_000 : 30_000).unref()
  })
  // The close policy is installed in the same turn as the tray: let that turn end.
  await new Promise((resolve) => setImmediate(resolve))
}

/** What the page's own scheme answers to requests the page never makes: climbing out, another host, a missing file. */
async function schemeProbes(pageUrl) {
  const { protocol, host } = new URL(pageUrl)
  if (['http:', 'https:', 'file:'].includes(protocol)) return null
  const at = (path) => `${protocol}//${host}${path}`
  const status = async (url) => (await protocols.request(url)).status
  return {
    root: await protocols.request(at('/')).then(({ status: s, headers }) => ({ status: s, headers })),
    encodedSlashes: await status(at('/..%2f..%2fpackage.json')),
    encodedDots: await status(at('/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json')),
    backslashes: await status(at('/..%5c..%5cpackage.json')),
    absolute: await status(at('/%2fetc%2fpasswd')),
    nul: await status(at('/index.html%00.js')),
    otherHost: await status(`${protocol}//elsewhere/index.html`),
    missing: await status(at('/assets/no-such-file.js')),
    directory: await status(at('/assets'))
  }
}

async function finish(win) {
  const contents = win.webContents
  const probes = (report.probes = {})
  const deny = (url) => contents.windowOpenHandler?.({ url })
  probes.windowOpenHttps = deny('https://grid.lightspark.com/platform-overview')
  probes.windowOpenOtherHost = deny('https://example.com/help')
  probes.windowOpenPlainHttp = deny('http://grid.lightspark.com/platform-overview')
  probes.windowOpenFile = deny('file:///etc/passwd')
  probes.openedExternally = [...report.opened]
  const navigation = (url) => {
    let prevented = false
    contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url)
    return prevented
  }
  probes.navigateAwayPrevented = navigation('https://evil.example/')
  probes.navigateFilePrevented = navigation('file:///tmp/evil.html')
  probes.navigateSelfPrevented = navigation(report.loadedUrl)
  let webviewPrevented = false
  contents.emit('will-attach-webview', { preventDefault: () => (webviewPrevented = true) })
  probes.webviewPrevented = webviewPrevented
  report.permissionAnswers = []
  for (const permission of ['notifications', 'media', 'geolocation']) {
    await new Promise((done) =>
      handlers.permissionRequest?.(contents, permission, (granted) => {
        report.permissionAnswers.push({ permission, granted })
        done()
      })
    )
  }
  probes.permissionCheck = handlers.permissionCheck?.(contents, 'media')
  const cancelled = (url) => new Promise((done) => handlers.beforeRequest({ url }, (answer) => done(answer.cancel)))
  probes.cancelRemoteRequest = await cancelled('https://api.lightspark.com/grid/2025-10-13/customers')
  probes.cancelFile = await cancelled('file:///etc/passwd')
  probes.cancelOwnPage = await cancelled(report.loadedUrl)
  probes.scheme = await schemeProbes(report.loadedUrl)
  // IPC from a frame that is not the window's main frame, from the main frame showing a file:// page, then from the
  // app page itself (last: the launch link is given once).
  const takeLaunchLink = (senderFrame) => invokeIpc('desktop.takeLaunchLink', { sender: contents, senderFrame })
  probes.ipcFromSubFrame = await takeLaunchLink({ url: report.loadedUrl })
  const pageUrl = contents.mainFrame.url
  contents.mainFrame.url = 'file:///tmp/out/renderer/index.html'
  probes.ipcFromFilePage = await takeLaunchLink(contents.mainFrame)
  contents.mainFrame.url = pageUrl
  probes.ipcFromAppPage = await takeLaunchLink(contents.mainFrame)
  // Closing the window: with no approval rules on, nothing keeps Paydesk in the tray.
  let closePrevented = false
  win.emit('close', { preventDefault: () => (closePrevented = true) })
  probes.closePrevented = closePrevented
  writeReport(true)
  process.exit(0)
}

export const {
  app,
  session,
  protocol,
  net,
  BrowserWindow,
  Tray,
  Notification,
  powerMonitor,
  screen,
  Menu,
  nativeTheme,
  clipboard,
  nativeImage,
  ipcMain,
  shell,
  dialog,
  utilityProcess
} = fake.modules
export default fake.modules
