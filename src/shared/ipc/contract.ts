import { z } from 'zod'
import type { ChannelSpec, IpcResult } from './define'
import { accountChannels } from './channels/accounts'
import { appChannels } from './channels/app'
import { dataChannels, dataEvents } from './channels/data'
import { desktopChannels, desktopEvents } from './channels/desktop'
import { quoteChannels } from './channels/quotes'
import { exportChannels, exportEvents } from './channels/export'
import { gateChannels, gateEvents } from './channels/gate'
import { historyChannels } from './channels/history'
import { homeChannels } from './channels/home'
import { syncChannels, syncEvents } from './channels/sync'
import { workbenchChannels } from './channels/workbench'
import { appEvents } from './events'
import type { ChannelName as ListedChannelName } from './channel-names'

/**
 * The one IPC contract. Main registers a handler per channel, preload exposes one function per channel, and the
 * browser-mode bridge serves the same names over loopback: all of them derive their types from this object.
 */
export const channels = {
  ...appChannels,
  ...dataChannels,
  ...syncChannels,
  ...quoteChannels,
  ...desktopChannels,
  ...accountChannels,
  ...exportChannels,
  ...gateChannels,
  ...historyChannels,
  ...workbenchChannels,
  ...homeChannels
} satisfies Record<string, ChannelSpec>

export const events = {
  ...appEvents,
  ...dataEvents,
  ...syncEvents,
  ...desktopEvents,
  ...exportEvents,
  ...gateEvents
} satisfies Record<string, z.ZodType>

export type Channels = typeof channels
export type ChannelName = keyof Channels
// channel-names.ts lists the same names without building any schema (for the renderer and the preload): a channel
// added here and not there, or the other way round, fails the typecheck on one of these two lines.
const everyChannelIsListed: ListedChannelName = '' as ChannelName
const everyListedNameIsAChannel: ChannelName = '' as ListedChannelName
void everyChannelIsListed
void everyListedNameIsAChannel
export type ChannelInput<K extends ChannelName> = z.input<Channels[K]['input']>
export type ChannelOutput<K extends ChannelName> = z.output<Channels[K]['output']>

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<K extends EventName> = z.output<Events[K]>

export { CHANNEL_NAMES, isChannelName } from './channel-names'

/** The object the renderer sees as `window.paydesk`. */
export type PaydeskApi = {
  invoke<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<IpcResult<ChannelOutput<K>>>
  /** Subscribes to a main-process event; returns the unsubscribe function. */
  on<K extends EventName>(event: K, listener: (payload: EventPayload<K>) => void): () => void
}
