import type { PaydeskApi } from '../../../shared/ipc/contract'
import { createWebBridge } from './web-bridge'

declare global {
  interface Window {
    paydesk?: PaydeskApi
  }
}

/** The desktop preload's API when present, else browser mode's loopback bridge. */
export const paydesk: PaydeskApi = window.paydesk ?? createWebBridge(window.location, window.sessionStorage)
