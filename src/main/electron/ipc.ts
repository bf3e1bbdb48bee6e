import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import { CHANNEL_NAMES } from '../../shared/ipc/contract'
import { EVENT_CHANNEL } from '../../shared/ipc/wire'
import type { Backend } from '../app/backend'
import { dispatch } from '../handlers/dispatch'
import { isAppPageUrl } from './url-policy'

/**
 * The only place that touches ipcMain. Every call is checked to come from the main frame of our own window showing
 * our own page before its input is validated and its handler runs.
 */
export function registerIpc(
  /** Still starting is fine: the window loads meanwhile and its calls wait for the backend. */
  backend: Backend | Promise<Backend>,
  getWindow: () => BrowserWindow | null,
  appPageUrl: string,
  log: (m: string) => void
) {
  const isTrustedSender = (event: IpcMainInvokeEvent): boolean => {
    const win = getWindow()
    const frame = event.senderFrame
    return (
      win !== null &&
      event.sender === win.webContents &&
      frame !== null &&
      frame === win.webContents.mainFrame &&
      isAppPageUrl(frame.url, appPageUrl)
    )
  }

  for (const name of CHANNEL_NAMES) {
    ipcMain.handle(name, async (event, input: unknown) => {
      if (!isTrustedSender(event)) {
        log(`refused IPC ${name} from an untrusted frame`)
        return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'This window may not call Paydesk.' } }
      }
      return dispatch((await backend).handlers, name, input, log)
    })
  }

  let unsubscribe: (() => void) | undefined
  let stopped = false
  void Promise.resolve(backend).then(
    (b) => {
      if (stopped) return
      unsubscribe = b.subscribe((event, payload) => {
        const win = getWindow()
        if (win && !win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event, payload)
      })
    },
    () => undefined
  )
  return () => {
    stopped = true
    unsubscribe?.()
  }
}
