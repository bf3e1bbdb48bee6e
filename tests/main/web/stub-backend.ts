import type { Backend } from '../../../src/main/app/backend'
import type { Handlers } from '../../../src/main/handlers/dispatch'

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
