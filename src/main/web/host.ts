import { homedir } from 'node:os'
import { join } from 'node:path'
import type { BackendHost } from '../app/backend'
import type { Emit } from '../infra/emit'
import { batchNotifications } from '../domain/notifications/batch'

/** Where browser mode keeps its data: PAYDESK_DATA_DIR, else the same per-user folder the desktop app uses. */
export function browserModeDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['PAYDESK_DATA_DIR']) return env['PAYDESK_DATA_DIR']
  const configHome = env['XDG_CONFIG_HOME'] || join(homedir(), '.config')
  return join(configHome, 'Paydesk')
}

/**
 * The browser-mode host: notifications travel to the page as `notification` events (the page raises a web
 * Notification or an in-app toast), because there is no native notification centre to call from Node.
 */
export function createBrowserHost(options: { appVersion: string; dataDir: string; log: (m: string) => void }) {
  const sinks = new Set<Emit>()
  const host: BackendHost = {
    mode: 'browser',
    appVersion: options.appVersion,
    dataDir: options.dataDir,
    log: options.log,
    notify: batchNotifications((n) => {
      for (const sink of sinks) sink('notification', n)
    })
  }
  const subscribe = (sink: Emit) => {
    sinks.add(sink)
    return () => void sinks.delete(sink)
  }
  return { host, subscribe }
}
