import type { BrowserWindowConstructorOptions } from 'electron'

/**
 * The page's own background (`--bg` in styles.css, light and dark): the window is painted with it before the page
 * draws, so opening Paydesk never flashes the other theme.
 */
const WINDOW_BACKGROUND = { light: '#f7f8fa', dark: '#0f1115' } as const

export function windowBackground(dark: boolean): string {
  return dark ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light
}

/**
 * The renderer is untrusted: it runs with no Node, in Chromium's sandbox, isolated from the preload, and can reach main
 * only through the named API that preload exposes. Kept as data so tests can read exactly what main passes.
 */
export function mainWindowOptions(
  preloadPath: string,
  iconPath: string,
  options: {
    /** nativeTheme.shouldUseDarkColors when the window opens. */
    dark: boolean
    /** Off in an installed app (`!app.isPackaged`): DevTools would let anyone at the keyboard run code in the page. */
    devTools: boolean
  }
): BrowserWindowConstructorOptions {
  const { dark, devTools } = options
  return {
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Paydesk',
    icon: iconPath,
    backgroundColor: windowBackground(dark),
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
      spellcheck: false,
      devTools
    }
  }
}
