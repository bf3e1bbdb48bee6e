import { app, session, shell, type WebContents } from 'electron'
import { isAllowedRendererRequest, isAppPageUrl, isSafeExternalUrl } from './url-policy'

/**
 * App-wide lockdown (Element Desktop style), in two halves because Electron has a session only once it is ready.
 *
 * This half, called before `ready`: every web contents, from the first, may not navigate away from the app page, open
 * windows or attach webviews. External http(s) links open in the OS browser.
 */
export function lockDownWebContents(appPageUrl: string, log: (message: string) => void): void {
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents, appPageUrl, log))
}

/**
 * The session's half, called once the app is ready and before any window exists: no permissions, no network requests
 * from the renderer. (Electron refuses `session.defaultSession` before `ready`.)
 */
export function lockDownSession(appPageUrl: string, log: (message: string) => void): void {
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((_contents, permission, callback) => {
    log(`denied permission request: ${permission}`)
    callback(false)
  })
  ses.setPermissionCheckHandler(() => false)
  ses.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRendererRequest(details.url, appPageUrl)
    if (!allowed) log(`blocked renderer request to ${new URL(details.url).origin}`)
    callback({ cancel: !allowed })
  })
}

function lockDownContents(contents: WebContents, appPageUrl: string, log: (message: string) => void): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url)
    else log('refused to open a non-web link')
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event, url) => {
    if (!isAppPageUrl(url, appPageUrl)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppPageUrl(url, appPageUrl)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}
