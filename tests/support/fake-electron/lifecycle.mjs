// The app's launch as Electron runs it, and the rules that hang on it: what Electron refuses before `ready`, and what it
// refuses after. Each refusal throws Electron's own error (type and message), so a main process that calls too early
// dies here exactly as it dies in Electron.
import { EventEmitter } from 'node:events'

/** Electron's refusals, each with where Electron says it. */
export const REFUSALS = {
  // shell/browser/api/electron_api_session.cc, FromPartition/FromPath: `args->ThrowTypeError(...)`. Reading
  // session.defaultSession calls fromPartition('') (lib/browser/api/session.ts); protocol.handle, net.fetch and every
  // other per-session API go through it.
  session: { type: TypeError, message: 'Session can only be received when app is ready' },
  // shell/browser/api/electron_api_browser_window.cc, BrowserWindow::New.
  browserWindow: { type: Error, message: 'Cannot create BrowserWindow before app is ready' },
  // shell/browser/api/electron_api_tray.cc, Tray::New.
  tray: { type: Error, message: 'Cannot create Tray before app is ready' },
  // shell/browser/api/electron_api_notification.cc, Notification::New (Notification.isSupported has no such check).
  notification: { type: Error, message: 'Cannot create Notification before app is ready' },
  // shell/common/api/electron_api_screen.cc, Screen::Create, called on the first property read of the lazy proxy
  // exported by lib/browser/api/screen.ts.
  screen: { type: Error, message: "The 'screen' module can't be used before the app 'ready' event" },
  // lib/browser/api/power-monitor.ts: the native monitor is created on the first listener, and
  // shell/browser/api/electron_api_power_monitor.cc (PowerMonitor::Create) refuses it before ready.
  powerMonitor: { type: Error, message: "The 'powerMonitor' module can't be used before the app 'ready' event" },
  // shell/browser/api/electron_api_utility_process.cc, UtilityProcessWrapper::Create (a TypeError, with a full stop);
  // docs/api/utility-process.md: "utilityProcess.fork can only be called after the ready event has been emitted".
  utilityProcess: { type: TypeError, message: 'utilityProcess cannot be created before app is ready.' },
  // shell/browser/api/electron_api_protocol.cc, RegisterSchemesAsPrivileged: the opposite rule, only BEFORE ready.
  lateSchemes: { type: Error, message: 'protocol.registerSchemesAsPrivileged should be called before app is ready' }
}

/** Throws the refusal as Electron throws it. */
export function refuse(rule) {
  const { type, message } = REFUSALS[rule]
  throw new type(message)
}

/**
 * Launch order (docs/api/app.md): `will-finish-launching`, then on macOS the `open-url` of a link that started the
 * app ("even before the ready event is emitted"), then `ready`, which resolves `app.whenReady()`.
 */
export function createLifecycle({ onRefuse = () => {} } = {}) {
  const events = new EventEmitter()
  let ready = false
  let resolveReady
  const whenReady = new Promise((resolve) => (resolveReady = resolve))
  return {
    events,
    isReady: () => ready,
    whenReady: () => whenReady,
    /** Throws `rule`'s refusal unless the app is ready. */
    requireReady(rule) {
      if (ready) return
      onRefuse(rule)
      refuse(rule)
    },
    /** Throws `rule`'s refusal once the app is ready. */
    requireNotReady(rule) {
      if (!ready) return
      onRefuse(rule)
      refuse(rule)
    },
    /** Runs the launch: what Electron does once main's first synchronous run has returned. */
    launch({ openUrl } = {}) {
      if (ready) throw new Error('fake-electron: launched twice')
      events.emit('will-finish-launching')
      if (openUrl) events.emit('open-url', { preventDefault() {} }, openUrl)
      ready = true
      events.emit('ready', {}, {})
      resolveReady()
    }
  }
}
