import type { BrowserWindowConstructorOptions } from 'electron'

/**
 * The renderer is untrusted: it runs with no Node, in Chromium's sandbox, isolated from the preload, and can reach main
 * only through the named API that preload exposes. Kept as data so tests can read exactly what main passes.
 */
export function mainWindowOptions(preloadPath: string, iconPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Paydesk',
    icon: iconPath,
    backgroundColor: '#0f1115',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false
    }
  }
}
