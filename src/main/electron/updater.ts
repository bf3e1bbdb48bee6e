import type { AppUpdater } from 'electron-updater'
import type { UpdaterDriver, UpdaterEvent } from '../domain/desktop/updates'

/**
 * electron-updater behind the update policy's narrow driver. Loaded only once the operator turned updates on, so an
 * install that never uses them never loads it.
 *
 * What is verified before "Update ready" (docs/updates.md): the download's SHA-512 against the feed's latest.yml on
 * every OS; on Windows, the installer's Authenticode signature against the publisher the app was signed by; on macOS,
 * Squirrel.Mac's code-signature check against the running app's designated requirement. A Linux AppImage or deb carries
 * no signature electron-updater can check: the checksum and the https feed are what protect it.
 */
export function electronUpdaterDriver(log: (m: string) => void): UpdaterDriver {
  const listeners: Array<(e: UpdaterEvent) => void> = []
  const emit = (e: UpdaterEvent) => listeners.forEach((l) => l(e))
  let loaded: Promise<AppUpdater> | null = null
  const updater = () => {
    loaded ??= import('electron-updater').then((module) => {
      // A CommonJS module whose `autoUpdater` is a getter: an ES import may see it only on the default export.
      const autoUpdater =
        (module as { default?: { autoUpdater?: AppUpdater } }).default?.autoUpdater ?? module.autoUpdater
      // Download in the background; install only when the operator clicks "Restart to install", never on quit.
      autoUpdater.autoDownload = true
      autoUpdater.autoInstallOnAppQuit = false
      autoUpdater.allowDowngrade = false
      autoUpdater.allowPrerelease = false
      autoUpdater.logger = null
      autoUpdater.on('checking-for-update', () => emit({ type: 'checking' }))
      autoUpdater.on('update-available', (info) => emit({ type: 'available', version: info.version }))
      autoUpdater.on('update-not-available', () => emit({ type: 'not-available' }))
      autoUpdater.on('update-downloaded', (info) => emit({ type: 'downloaded', version: info.version }))
      autoUpdater.on('error', (error) => emit({ type: 'error', message: error.message }))
      return autoUpdater
    })
    return loaded
  }
  return {
    configure(feedUrl) {
      void updater()
        .then((u) => u.setFeedURL({ provider: 'generic', url: feedUrl }))
        .catch(() => log('the updater could not be loaded'))
    },
    async check() {
      await (await updater()).checkForUpdates()
    },
    onEvent: (listener) => void listeners.push(listener),
    installAndRestart() {
      void updater().then((u) => u.quitAndInstall(false, true))
    }
  }
}
