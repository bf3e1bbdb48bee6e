import type { Backend } from '../../../src/main/backend'
import type { Handlers } from '../../../src/main/ipc/dispatch'

/** A Backend with nothing behind it but the parts a browser-mode server test hands in (handlers, exports, events). */
export function stubBackend(parts: Partial<Backend> = {}): Backend {
  return {
    handlers: {} as Handlers,
    desktop: {} as Backend['desktop'],
    subscribe: () => () => {},
    setForeground: () => {},
    setSuspended: () => {},
    close: async () => {},
    ...parts
  }
}
