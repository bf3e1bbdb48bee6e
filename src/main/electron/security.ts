import { app, session, shell, type WebContents } from 'electron'
import { isAllowedRendererRequest, isAppPageUrl, isSafeExternalUrl } from './url-policy'

/**
 * App-wide lockdown (Element Desktop style): no navigation away from the app page, no new windows, no webviews, no
 * permissions, no network requests from the renderer. External http(s) links open in the OS browser.
 */
export function lockDownApp(appPageUrl: string, log: (message: string) => void): void {
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents, appPageUrl, log))

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
