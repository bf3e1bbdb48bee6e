import type { dataChannels } from '../../shared/ipc/channels/data'
import type { ProfileSession } from '../domain/profile-session'
import type { Handlers } from './dispatch'

/**
 * The data channels (src/shared/ipc/channels/data.ts), over the active profile's session: reads answer from its cache,
 * writes and transfers go through its services.
 */
export function dataHandlers(active: () => Promise<ProfileSession>): Pick<Handlers, keyof typeof dataChannels> {
  return {
    'transactions.query': async (input) => (await active()).queryTransactions(input),
    'transactions.get': async ({ id }) => (await active()).getTransaction(id),
    'customers.query': async (input) => (await active()).queryCustomers(input),
    'customers.get': async ({ id }) => (await active()).getCustomer(id),
    'customers.create': async (input) => (await active()).writes.createCustomer(input),
    'externalAccounts.query': async (input) => (await active()).queryExternalAccounts(input),
    'externalAccounts.create': async (input) => (await active()).writes.createExternalAccount(input),
    'externalAccounts.remove': async ({ id }) => (await active()).writes.removeExternalAccount(id),
    'internalAccounts.list': async (input) => (await active()).listInternalAccounts(input),
    'discoveries.list': async (input) => (await active()).listDiscoveries(input),
    'transfers.send': async (input) => (await active()).transfers.send(input),
    'transfers.check': async ({ actionId }) => (await active()).transfers.check(actionId),
    'transfers.resolve': async (input) => (await active()).transfers.resolve(input),
    'transfers.sendAgain': async (input) => (await active()).transfers.sendAgain(input),
    'transfers.journal': async () => (await active()).transfers.records(),
    'sandbox.fund': async ({ accountId, amount }) => (await active()).writes.fund(accountId, amount),
    'sandbox.receive': async (input) => (await active()).writes.receive(input)
  }
}
