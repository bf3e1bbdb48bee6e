import { join } from 'node:path'
import { app, BrowserWindow, dialog, powerMonitor } from 'electron'
import { createBackend, type Backend } from '../backend'
import { electronSandboxLauncher } from './sandbox-process'
import { lockDataDir } from '../data-lock'
import { createLogger, logCrashes } from '../log'
import { registerIpc } from './ipc'
import { batchNotifications } from '../notifications/batch'
import { showItem } from './focus'
import { createNativeNotifier } from './notifier'
import { lockDownApp } from './security'
import { appPageUrlFor } from './url-policy'
import { mainWindowOptions } from './window-options'

/** Electron entry: a thin adapter that hosts the backend and one locked-down window. */
export function runElectronApp(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  const log = createLogger(join(app.getPath('userData'), 'logs'))
  logCrashes(log, (code) => app.exit(code))
  const appPageUrl = appPageUrlFor({
    isPackaged: app.isPackaged,
    devServerUrl: process.env['ELECTRON_RENDERER_URL'],
    builtPage: join(__dirname, '../renderer/index.html')
  })
  let window: BrowserWindow | null = null
  let backend: Backend | null = null

  lockDownApp(appPageUrl, log)

  app.on('second-instance', () => showItem(window, 'home'))
  app.on('window-all-closed', () => app.quit())
  app.on('before-quit', () => void backend?.close())

  void app.whenReady().then(async () => {
    let releaseDataDir: () => void
    try {
      releaseDataDir = lockDataDir(app.getPath('userData'))
    } catch (error) {
      dialog.showErrorBox('Paydesk is already running', error instanceof Error ? error.message : String(error))
      app.quit()
      return
    }
    app.on('will-quit', () => releaseDataDir())
    const notify = batchNotifications(createNativeNotifier((n) => showItem(window, n.route, n.targetId, n.profileId)))
    backend = await createBackend({
      mode: 'electron',
      appVersion: app.getVersion(),
      dataDir: app.getPath('userData'),
      sandboxLauncher: electronSandboxLauncher,
      notify,
      log,
      // The operator picks where an export goes; the backend writes it there (beside it, then renamed).
      chooseExportFile: async (suggestedName) => {
        const options = {
          defaultPath: join(app.getPath('downloads'), suggestedName),
          filters: [{ name: 'CSV', extensions: ['csv'] }]
        }
        const chosen = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options)
        return chosen.canceled || !chosen.filePath ? null : chosen.filePath
      }
    })
    // Polling stops while the laptop sleeps and catches up on wake.
    powerMonitor.on('suspend', () => backend?.setSuspended(true))
    powerMonitor.on('resume', () => backend?.setSuspended(false))

    window = new BrowserWindow(
      mainWindowOptions(join(__dirname, '../preload/index.cjs'), join(__dirname, '../../resources/icon.png'))
    )
    registerIpc(backend, () => window, appPageUrl, log)
    window.on('focus', () => backend?.setForeground(true))
    window.on('blur', () => backend?.setForeground(false))
    window.on('closed', () => (window = null))
    window.once('ready-to-show', () => window?.show())
    await window.loadURL(appPageUrl)
  })
}
