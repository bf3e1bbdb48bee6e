/**
 * The application id: electron-builder.yml's `appId` (the packaging test checks they agree). On Windows it is also the
 * AppUserModelID of the Start-menu shortcut the installer creates, and Windows shows a notification only for an app
 * whose AppUserModelID matches one.
 */
export const APP_ID = 'com.paydesk.app'
