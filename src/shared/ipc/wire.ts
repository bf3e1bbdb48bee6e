/** The single Electron channel main → renderer events travel on, as (eventName, payload). */
export const EVENT_CHANNEL = 'paydesk:event'

/** Browser mode: header carrying the per-launch token, and the loopback routes of the bridge. */
export const TOKEN_HEADER = 'x-paydesk-token'
export const BRIDGE_INVOKE_PATH = '/__paydesk/invoke/'
export const BRIDGE_EVENTS_PATH = '/__paydesk/events'
/** Browser mode: GET + export id downloads a finished CSV export once (same token, Origin and Host checks). */
export const BRIDGE_EXPORT_PATH = '/__paydesk/export/'
/** The most rows one list window may ask for (here, not in the schemas, so the renderer reads it without zod). */
export const MAX_WINDOW_ROWS = 500
