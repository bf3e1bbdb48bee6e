import type { EventName, EventPayload } from '../shared/ipc/contract'
import type { Handlers } from './ipc/dispatch'

/** Everything the backend needs from its host (Electron or browser mode); all of it can be faked in tests. */
export interface BackendHost {
  mode: 'electron' | 'browser'
  appVersion: string
  /** Folder for profiles, caches and the local sandbox's state (Electron: userData; browser mode: XDG config). */
  dataDir: string
  /** Raises a native notification (Electron) or forwards it to the page (browser mode). */
  notify(notification: { id: string; title: string; body: string; route: string; targetId?: string }): void
  log(message: string): void
}

export type EventSink = <K extends EventName>(event: K, payload: EventPayload<K>) => void

export interface Backend {
  handlers: Handlers
  /** Subscribes to main → renderer events; returns the unsubscribe function. */
  subscribe(sink: EventSink): () => void
  /** Tells the backend whether a person is looking (window focused / page visible): drives the polling rate. */
  setForeground(foreground: boolean): void
  close(): Promise<void>
}
