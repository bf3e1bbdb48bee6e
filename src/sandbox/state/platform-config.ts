/**
 * The platform's configuration (`GET`/`PATCH /config`): the sandbox honours the webhook endpoint; every other field
 * reads back as the sandbox's fixed values. Kept with the state, together with the webhook signing key pair.
 */
import type { PlatformConfigUpdateRequest } from '../../shared/api/platform-config'
import { iso } from './clock'
import { ApiError } from './sandbox-errors'
import type { Store } from './sandbox-store'
import { newSigningKeyPair, type SigningKeyPair } from './webhook-signing'

export interface PlatformSettings {
  webhookEndpoint?: string
  createdAt: string
  updatedAt: string
  signingKey: SigningKeyPair
}

/** Fields of the published PATCH /config the sandbox cannot change: 501, as the service answers what it does not do. */
const FIXED_FIELDS = ['umaDomain', 'supportedCurrencies', 'proxyUmaSubdomain', 'isRegulatedFinancialInstitution']

function isSettings(v: unknown): v is PlatformSettings {
  if (!v || typeof v !== 'object') return false
  const s = v as Partial<PlatformSettings>
  return (
    typeof s.createdAt === 'string' &&
    typeof s.updatedAt === 'string' &&
    (s.webhookEndpoint === undefined || typeof s.webhookEndpoint === 'string') &&
    typeof s.signingKey?.privateKeyPem === 'string' &&
    typeof s.signingKey.publicKeyPem === 'string'
  )
}

/**
 * The store's settings, created when the state has none (fresh, or saved before webhooks) or holds unreadable ones;
 * true when they were (re)created and must be saved.
 */
export function ensureSettings(store: Store, now: number, log: (message: string) => void): boolean {
  if (isSettings(store.settings)) return false
  if (store.settings !== undefined)
    log('Local sandbox: the saved platform configuration was unreadable; it starts again with a new webhook key')
  store.settings = { createdAt: iso(now), updatedAt: iso(now), signingKey: newSigningKeyPair() }
  return true
}

function settingsOf(store: Store): PlatformSettings {
  if (!store.settings) throw new ApiError(500, 'INTERNAL_ERROR', 'The platform configuration is not set up')
  return store.settings
}

/** The published PlatformConfig. */
export function platformConfig(store: Store, currencies: string[]): Record<string, unknown> {
  const s = settingsOf(store)
  return {
    id: `PlatformConfig:${store.platform.id.replace(/^[^:]*:/, '')}`,
    umaDomain: store.platform.umaDomain,
    ...(s.webhookEndpoint !== undefined && { webhookEndpoint: s.webhookEndpoint }),
    supportedCurrencies: currencies.map((currencyCode) => ({
      currencyCode,
      minAmount: 1,
      maxAmount: 100_000_000_000,
      requiredCounterpartyFields: [],
      enabledTransactionTypes: ['OUTGOING', 'INCOMING']
    })),
    isRegulatedFinancialInstitution: false,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt
  }
}

/** Refuses, before validation, a field of the published request that the sandbox cannot change. */
export function refuseFixedFields(raw: unknown): void {
  if (!raw || typeof raw !== 'object') return
  const fixed = FIXED_FIELDS.filter((f) => f in raw)
  if (fixed.length > 0) {
    throw new ApiError(
      501,
      'NOT_IMPLEMENTED',
      `The Local sandbox cannot change ${fixed.join(', ')}; PATCH /config takes webhookEndpoint only`,
      { fields: fixed }
    )
  }
}

export function updatePlatformConfig(store: Store, req: PlatformConfigUpdateRequest, now: number): void {
  const s = settingsOf(store)
  s.webhookEndpoint = req.webhookEndpoint
  s.updatedAt = iso(now)
}
