import type { Handlers } from './dispatch'
import type { ProfileSession } from '../domain/profile-session'

/** The handlers of the quotes channels (src/shared/ipc/channels/quotes.ts), over the active profile's session. */
export function quoteHandlers(
  active: () => Promise<ProfileSession>
): Pick<Handlers, 'quotes.create' | 'quotes.get' | 'quotes.execute' | 'quotes.open' | 'sandbox.send'> {
  return {
    'quotes.create': async (input) => (await active()).quotes.create(input),
    'quotes.get': async ({ quoteId }) => (await active()).quotes.get(quoteId),
    'quotes.execute': async (input) => (await active()).quotes.execute(input),
    'quotes.open': async () => (await active()).quotes.open(),
    'sandbox.send': async (input) => (await active()).quotes.sandboxSend(input)
  }
}
