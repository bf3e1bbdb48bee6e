import { describe, expect, it } from 'vitest'
import { defaultFollowDelayMs, serviceFieldErrors } from '../../../src/main/domain/external-account-edits'
import type { ExternalAccount } from '../../../src/shared/api'
import { requireRealKeyring } from '../../support/keyring'
import { backendAgainstSandbox, sandboxApi, waitFor } from '../sandbox-env'

requireRealKeyring()

const env = backendAgainstSandbox('account-edits', { sandbox: { faults: true }, profile: true })

const address = { line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' }
const jane = { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Jane Doe', address }

/** An ACTIVE USD account at the service, and in Paydesk's cache (as after a sync). */
async function activeAccount(): Promise<ExternalAccount> {
  const api = sandboxApi(env.server)
  const created = await api<ExternalAccount>('POST', 'customers/external-accounts', {
    currency: 'USD',
    platformAccountId: 'ledger-1',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '40012345678',
      routingNumber: '021000021',
      bankAccountType: 'CHECKING',
      beneficiary: jane
    }
  })
  await waitFor(async () => (await api('GET', `customers/external-accounts/${created.id}`)).status === 'ACTIVE')
  await cached(created.id, (a) => a?.status === 'ACTIVE')
  return created
}

/** Waits until Paydesk's cache holds the account in a state `ok` accepts (query refreshes in the background). */
async function cached(id: string, ok: (a: ExternalAccount | undefined) => boolean, timeoutMs = 8_000) {
  return waitFor(
    async () => {
      const w = await env.h.call('externalAccounts.query', { search: id, limit: 5 })
      const a = w.rows.find((r) => r.id === id)
      return ok(a) ? (a ?? 'absent') : undefined
    },
    timeoutMs,
    100
  )
}

describe('externalAccounts.update', () => {
  it('a beneficiary change: the account goes UNDER_REVIEW, main follows it and the cache shows ACTIVE again', async () => {
    const a = await activeAccount()
    const updated = await env.h.call('externalAccounts.update', {
      id: a.id as `ExternalAccount:${string}`,
      update: { beneficiary: { ...jane, fullName: 'Jane Q. Doe' } }
    })
    expect(updated.status).toBe('UNDER_REVIEW')
    expect(updated.accountInfo.beneficiary?.fullName).toBe('Jane Q. Doe')
    const during = await env.h.call('externalAccounts.follow', { id: a.id as `ExternalAccount:${string}` })
    expect(during.following).toBe(true)
    // Nobody queries the list here: only main's following can bring the settled status into the cache.
    const settled = await waitFor(
      async () => {
        const f = await env.h.call('externalAccounts.follow', { id: a.id as `ExternalAccount:${string}` })
        return f.account?.status === 'ACTIVE' ? f : undefined
      },
      8_000,
      100
    )
    expect(settled.account?.accountInfo.beneficiary?.fullName).toBe('Jane Q. Doe')
    expect(
      env.h.events.some(
        (e) =>
          e.event === 'data.changed' &&
          (e.payload as { collections: string[] }).collections.includes('externalAccounts')
      )
    ).toBe(true)
    await waitFor(
      async () => !(await env.h.call('externalAccounts.follow', { id: a.id as never })).following,
      8_000,
      100
    )
  })

  it('a platformAccountId change alone keeps the account ACTIVE and updates the cache', async () => {
    const a = await activeAccount()
    const updated = await env.h.call('externalAccounts.update', {
      id: a.id as never,
      update: { platformAccountId: 'L-9' }
    })
    expect(updated.status).toBe('ACTIVE')
    const c = await cached(a.id, (x) => x?.platformAccountId === 'L-9')
    expect(c).not.toBe('absent')
  })

  it('a beneficiary below its currency minimums is refused in main at the field, and nothing is sent', async () => {
    const a = await activeAccount()
    const r = (await env.h.raw('externalAccounts.update', {
      id: a.id,
      update: { platformAccountId: 'changed', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'No Address' } }
    })) as { ok: false; error: { code: string; fieldErrors: Record<string, string[]> } }
    expect(r.ok).toBe(false)
    expect(r.error.code).toBe('INVALID_INPUT')
    expect(Object.keys(r.error.fieldErrors)).toEqual(['beneficiary.address'])
    const atService = await sandboxApi(env.server)('GET', `customers/external-accounts/${a.id}`)
    expect(atService.platformAccountId).toBe('ledger-1')
    expect(atService.status).toBe('ACTIVE')
  })

  it('a field the service refuses comes back as a fieldError at that field, and nothing changes', async () => {
    const a = await activeAccount()
    env.server.faults.add({
      route: 'PATCH /customers/external-accounts/{externalAccountId}',
      kind: 'error',
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The receiving bank refuses this name',
      details: { issues: [{ path: 'beneficiary.fullName', message: 'The receiving bank refuses this name' }] },
      times: 1
    })
    const r = (await env.h.raw('externalAccounts.update', {
      id: a.id,
      update: { beneficiary: { ...jane, fullName: 'Jane Refused' } }
    })) as { ok: false; error: { code: string; serviceCode: string; fieldErrors: Record<string, string[]> } }
    expect(r.ok).toBe(false)
    expect(r.error.serviceCode).toBe('INVALID_INPUT')
    expect(r.error.fieldErrors).toEqual({ 'beneficiary.fullName': ['The receiving bank refuses this name'] })
    const c = await cached(a.id, (x) => x !== undefined)
    expect(c !== 'absent' && c.accountInfo.beneficiary?.fullName).toBe('Jane Doe')
    expect(c !== 'absent' && c.status).toBe('ACTIVE')
  })

  it('an account that is gone answers NOT_FOUND', async () => {
    const r = (await env.h.raw('externalAccounts.update', {
      id: 'ExternalAccount:missing',
      update: { platformAccountId: 'x' }
    })) as { ok: false; error: { code: string } }
    expect(r.error.code).toBe('NOT_FOUND')
  })
})

describe('serviceFieldErrors', () => {
  it('reads issues, a single field and a fields map; anything else is no field errors', () => {
    expect(serviceFieldErrors({ issues: [{ path: 'beneficiary.email', message: 'bad' }] }, 'm')).toEqual({
      'beneficiary.email': ['bad']
    })
    expect(serviceFieldErrors({ issues: [{ path: ['beneficiary', 'address', 'city'], message: 'x' }] }, 'm')).toEqual({
      'beneficiary.address.city': ['x']
    })
    expect(serviceFieldErrors({ field: 'platformAccountId' }, 'taken')).toEqual({ platformAccountId: ['taken'] })
    expect(serviceFieldErrors({ fields: { 'beneficiary.fullName': 'too long' } }, 'm')).toEqual({
      'beneficiary.fullName': ['too long']
    })
    expect(serviceFieldErrors({ something: 1 }, 'm')).toBeUndefined()
    expect(serviceFieldErrors(undefined, 'm')).toBeUndefined()
  })

  it('polls quickly at first, then slower', () => {
    expect(defaultFollowDelayMs(0)).toBe(1_000)
    expect(defaultFollowDelayMs(30)).toBe(5_000)
    expect(defaultFollowDelayMs(100)).toBe(30_000)
  })
})
