import type { EventName, EventPayload } from '../../shared/ipc/contract'

/** How main tells the page an event of the contract: one signature for the backend, its sessions and its handlers. */
export type Emit = <K extends EventName>(event: K, payload: EventPayload<K>) => void
