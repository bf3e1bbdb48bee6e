import type { ZodType } from 'zod'
import {
  Customer,
  ExternalAccount,
  InternalAccount,
  Transaction,
  type CustomerCreateRequest,
  type ExternalAccountCreateRequest,
  type SandboxReceiveRequest
} from '../../shared/api'
import type { DataCollection } from '../../shared/ipc/channels/data'
import type { ApiClient } from '../infra/api-client'
import type { CacheStore } from '../infra/cache/store'
import { writeOnline } from './client-access'
import { requireSandboxProfile } from './production-guard'
import type { StoredProfile } from './profiles'

interface WriteDeps {
  profile: StoredProfile
  client: ApiClient | undefined
  cache: CacheStore
  /** The cached collection changed: tell the renderer. */
  changed(collection: DataCollection): void
  /** Asks sync for a poll now (a simulated payment is announced by the next poll). */
  pollNow(): void
}

/**
 * The writes that are not money leaving the platform: customers, external accounts and the sandbox's tools. Each goes
 * straight to the service (never queued: offline fails with OFFLINE) and then into the cache.
 */
export class ProfileWrites {
  constructor(private readonly d: WriteDeps) {}

  private write<T>(what: string, work: (client: ApiClient) => Promise<T>): Promise<T> {
    return writeOnline(this.d.client, what, work)
  }

  /** POSTs a new item and caches what the service answered. */
  private create<T extends { id: string }>(
    what: string,
    collection: 'customers' | 'externalAccounts',
    path: string,
    body: unknown,
    schema: ZodType<T>
  ): Promise<T> {
    return this.write(what, async (client) => {
      const created = await client.request('POST', path, { body, schema })
      await this.d.cache.put(collection, [created])
      this.d.changed(collection)
      return created
    })
  }

  createCustomer(input: CustomerCreateRequest) {
    return this.create('create the customer', 'customers', 'customers', input, Customer)
  }

  createExternalAccount(input: ExternalAccountCreateRequest) {
    return this.create(
      'add the external account',
      'externalAccounts',
      'customers/external-accounts',
      input,
      ExternalAccount
    )
  }

  removeExternalAccount(id: string) {
    return this.write('delete the external account', async (client) => {
      await client.request('DELETE', `customers/external-accounts/${encodeURIComponent(id)}`)
      await this.d.cache.put('externalAccounts', [], { remove: [id] })
      this.d.changed('externalAccounts')
      return null
    })
  }

  fund(accountId: string, amount: number) {
    requireSandboxProfile(
      this.d.profile,
      'Sandbox funding exists only for sandbox profiles; this is a production profile.'
    )
    return this.write('fund the account', async (client) => {
      const a = await client.request('POST', `sandbox/internal-accounts/${encodeURIComponent(accountId)}/fund`, {
        body: { amount },
        schema: InternalAccount
      })
      await this.d.cache.put('internalAccounts', [a])
      this.d.changed('internalAccounts')
      return a
    })
  }

  receive(input: SandboxReceiveRequest) {
    requireSandboxProfile(
      this.d.profile,
      'Simulating a payment exists only for sandbox profiles; this is a production profile.'
    )
    return this.write('simulate the payment', async (client) => {
      const t = await client.request('POST', 'sandbox/uma/receive', { body: input, schema: Transaction })
      // Sync announces it (approvals, rules, notification) on its next poll, which we ask for now.
      this.d.pollNow()
      return t
    })
  }
}
