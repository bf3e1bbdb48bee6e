import { contextBridge, ipcRenderer } from 'electron'
import { isChannelName } from '../shared/ipc/channel-names'
import type { PaydeskApi } from '../shared/ipc/contract'
import { EVENT_CHANNEL } from '../shared/ipc/wire'

/**
 * The renderer's only door to main: `window.paydesk.invoke(channel, input)` for the contract's channels and
 * `window.paydesk.on(event, listener)` for its events. Raw ipcRenderer never leaves this file.
 */
const api: PaydeskApi = {
  invoke: (channel, input) => {
    if (!isChannelName(channel)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'UNKNOWN_CHANNEL', message: `Unknown operation ${String(channel)}` }
      })
    }
    return ipcRenderer.invoke(channel, input ?? null)
  },
  on: (event, listener) => {
    const handler = (_e: Electron.IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) (listener as (p: unknown) => void)(payload)
    }
    ipcRenderer.on(EVENT_CHANNEL, handler)
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler)
    }
  }
}

contextBridge.exposeInMainWorld('paydesk', api)
