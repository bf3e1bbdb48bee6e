import { join } from 'node:path'
import { app, BrowserWindow, dialog, nativeTheme, powerMonitor } from 'electron'
import { createBackend, type Backend } from '../app/backend'
import { approvalsTarget } from '../domain/desktop/tray-model'
import { electronSandboxLauncher } from './utility-launcher'
import { lockDataDir } from '../infra/data-lock'
import { createLogger, logCrashes } from '../infra/log'
import { registerIpc } from './ipc'
import { batchNotifications } from '../domain/notifications/batch'
import { installAppMenu } from './app-menu'
import { closeToTray } from './close-to-tray'
import { attachContextMenu, showIdContextMenu } from './context-menu'
import { handleDeepLinks } from './deep-links'
import { showItem, showWindow } from './focus'
import { createNativeNotifier } from './notifier'
import { declareAppScheme, serveAppScheme } from './app-protocol'
import { lockDownSession, lockDownWebContents } from './security'
import { createAppTray } from './tray'
import { electronUpdaterDriver } from './updater'
import { appPageUrlFor } from './url-policy'
import { APP_ID } from './app-id'
import { mainWindowOptions, windowBackground } from './window-options'

/** Electron entry: a thin adapter that hosts the backend, one locked-down window, the tray and the menus. */
export function runElectronApp(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID)
  const log = createLogger(join(app.getPath('userData'), 'logs'))
  logCrashes(log, (code) => app.exit(code))
  // Electron takes a scheme's privileges only before `ready`; its handler only after.
  declareAppScheme()
  const appPageUrl = appPageUrlFor({ isPackaged: app.isPackaged, devServerUrl: process.env['ELECTRON_RENDERER_URL'] })
  const icon = join(__dirname, '../../resources/icon.png')
  let window: BrowserWindow | null = null
  let backend: Backend | null = null
  /** The operator chose Quit (or the OS is ending the session): closing the window then really closes it. */
  let quitting = false

  lockDownWebContents(appPageUrl, log)
  // Registered before `ready`: macOS hands over the link that launched Paydesk early.
  const links = handleDeepLinks({ focus: () => showWindow(window), log })

  app.on('window-all-closed', () => app.quit())
  app.on('before-quit', () => {
    quitting = true
    void backend?.close()
  })
  app.on('activate', () => showWindow(window))

  void app.whenReady().then(async () => {
    // First thing once Electron has a session: no page loads before its requests and permissions are locked down.
    lockDownSession(appPageUrl, log)
    serveAppScheme(join(__dirname, '../renderer'), log)
    let releaseDataDir: () => void
    try {
      releaseDataDir = lockDataDir(app.getPath('userData'))
    } catch (error) {
      dialog.showErrorBox('Paydesk is already running', error instanceof Error ? error.message : String(error))
      app.quit()
      return
    }
    app.on('will-quit', () => releaseDataDir())
    // An installed app has no DevTools: neither in the window's preferences nor in the menu.
    const devTools = !app.isPackaged
    installAppMenu(app.getVersion(), { devTools })
    const notify = batchNotifications(createNativeNotifier((n) => showItem(window, n.route, n.targetId, n.profileId)))
    // The window loads its page while the backend starts (its calls wait for it): the operator waits for the longer of
    // the two, not both in turn.
    const starting = createBackend({
      mode: 'electron',
      appVersion: app.getVersion(),
      dataDir: app.getPath('userData'),
      sandboxLauncher: electronSandboxLauncher,
      notify,
      log,
      desktop: {
        updater: electronUpdaterDriver(log),
        showContextMenu: (copyId) => showIdContextMenu(window, copyId),
        takeLaunchLink: () => links.takeLaunchLink(),
        // The theme chosen in Settings: native menus and dialogs, and the window's own background, follow it.
        applyTheme: (theme) => (nativeTheme.themeSource = theme)
      },
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
    window = new BrowserWindow(
      mainWindowOptions(join(__dirname, '../preload/index.cjs'), icon, {
        dark: nativeTheme.shouldUseDarkColors,
        devTools
      })
    )
    nativeTheme.on('updated', () => window?.setBackgroundColor(windowBackground(nativeTheme.shouldUseDarkColors)))
    registerIpc(starting, () => window, appPageUrl, log)
    attachContextMenu(window)
    window.on('focus', () => backend?.setForeground(true))
    window.on('blur', () => backend?.setForeground(false))
    window.on('closed', () => (window = null))
    window.once('ready-to-show', () => window?.show())
    const loading = window.loadURL(appPageUrl)
    const started = await starting
    backend = started
    nativeTheme.themeSource = started.desktop.settings.appearance.theme
    // Polling stops while the laptop sleeps and catches up on wake.
    powerMonitor.on('suspend', () => backend?.setSuspended(true))
    powerMonitor.on('resume', () => backend?.setSuspended(false))

    const snapshot = () => started.desktop.snapshot()
    const tray = createAppTray(
      icon,
      snapshot,
      {
        open: () => showWindow(window),
        openApprovals: () => showItem(window, 'approvals', undefined, approvalsTarget(snapshot())),
        switchProfile: (id) => void started.handlers['profiles.switch']({ id }).catch(() => log('switch failed')),
        quit: () => app.quit()
      },
      log
    )
    // Every backend event may change a count, a profile or who is watched; the tray redraws only on a change.
    if (tray) started.subscribe(() => tray.refresh())

    // Closed before the backend was up: nothing to keep in the tray yet.
    if (window)
      closeToTray(window, {
        isQuitting: () => quitting,
        anyGateFollowed: () => snapshot().profiles.some((p) => p.followsGate),
        trayAvailable: tray !== null,
        settings: started.desktop.settings,
        notify,
        onHidden: () => backend?.setForeground(false),
        log
      })
    links.start(
      () => started.desktop.snapshot().profiles.map((p) => p.id),
      (view) => showItem(window, view.route, view.id, view.profileId)
    )
    await loading
  })
}
