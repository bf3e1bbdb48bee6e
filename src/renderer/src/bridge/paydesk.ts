import type { ChannelInput, ChannelName, ChannelOutput, PaydeskApi } from '../../../shared/ipc/contract'
import type { IpcError } from '../../../shared/ipc/define'
import { createWebBridge } from './web-bridge'

declare global {
  interface Window {
    paydesk?: PaydeskApi
  }
}

/** The desktop preload's API when present, else browser mode's loopback bridge. */
export const paydesk: PaydeskApi = window.paydesk ?? createWebBridge(window.location, window.sessionStorage)

/** An IPC failure as an exception, for code that prefers try/catch. Carries the typed error unchanged. */
export class PaydeskError extends Error {
  constructor(readonly error: IpcError) {
    super(error.message)
  }
}

export async function call<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ChannelOutput<K>> {
  const result = await paydesk.invoke(channel, input)
  if (!result.ok) throw new PaydeskError(result.error)
  return result.value
}
