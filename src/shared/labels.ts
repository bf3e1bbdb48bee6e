import type { Customer, ExternalAccount, InternalAccount } from './api'
import { shortenId } from './format/ids'

/**
 * How Paydesk names people and accounts to an operator, one function per concept, for main (cache, notifications,
 * CSV) and the renderer alike. Pure and free of zod (type imports only): the cache's writer thread labels what it
 * writes with these, and importing the contract there built every schema in that thread.
 */

/** What a label is made of: each function reads only these fields, so a document from any source will do. */
type NameFields = Pick<Customer, 'platformCustomerId'> & { fullName?: string | undefined }
type InternalFields = Pick<InternalAccount, 'balance'> & { customerId?: string | null | undefined }
type ExternalFields = Pick<ExternalAccount, 'accountInfo'> & {
  customerId?: string | null | undefined
  beneficiaryVerifiedData?: { fullName?: string | undefined } | undefined
}

/** A customer as the operator knows them: the full name, else the platform's own id for them. */
export function customerName(c: NameFields): string {
  return c.fullName?.trim() || c.platformCustomerId
}

/** Who holds an account that is not a customer's: the platform itself. */
const PLATFORM = 'Platform'

/** "Platform · USD" for the platform's own account, "Priya Raman · USD" for a customer's. */
export function internalAccountLabel(a: InternalFields, ownerName?: string | null): string {
  const holder = a.customerId ? ownerName || 'Customer' : PLATFORM
  return `${holder} · ${a.balance.currency.code}`
}

/**
 * The identifier whose last digits name an account (account number, CLABE, IBAN, phone number, wallet address...),
 * or undefined when the accountInfo has none.
 */
export function accountInfoIdentifier(info: Record<string, unknown>): string | undefined {
  for (const key of ['accountNumber', 'clabeNumber', 'iban', 'phoneNumber', 'address', 'pixKey', 'invoice']) {
    const v = info[key]
    if (typeof v === 'string' && v.length > 0) return v
  }
  return undefined
}

/** "…9012": the last four characters of the account's identifier (account number, CLABE, IBAN, wallet address). */
export function lastDigits(account: Pick<ExternalAccount, 'accountInfo'>): string {
  const identifier = accountInfoIdentifier(account.accountInfo as Record<string, unknown>)
  return identifier ? `…${identifier.slice(-4)}` : ''
}

/** Short names for a label or a list column: the rail or format a person recognises. */
const SHORT_NAMES: Record<string, string> = {
  US_ACCOUNT: 'US bank',
  USD_ACCOUNT: 'US bank',
  GBP_ACCOUNT: 'UK bank',
  EUR_ACCOUNT: 'IBAN',
  AED_ACCOUNT: 'UAE IBAN',
  MXN_ACCOUNT: 'CLABE',
  BRL_ACCOUNT: 'PIX',
  NGN_ACCOUNT: 'NG bank',
  CAD_ACCOUNT: 'CA bank',
  PHP_ACCOUNT: 'PH bank',
  ZAR_ACCOUNT: 'ZA bank',
  SPARK_WALLET: 'Spark',
  SOLANA_WALLET: 'Solana',
  BASE_WALLET: 'Base',
  ETHEREUM_WALLET: 'Ethereum',
  LIGHTNING: 'Lightning'
}
export const shortTypeName = (type: string) =>
  SHORT_NAMES[type] ?? (type.endsWith('_ACCOUNT') ? `${type.slice(0, 3)} mobile` : type)

/** Who the money goes to as the account says: the beneficiary's name, the business's legal name, the verified name. */
export function beneficiaryName(account: ExternalFields): string | undefined {
  const b = account.accountInfo.beneficiary
  const named = b?.fullName ?? b?.legalName ?? b?.businessInfo?.legalName ?? account.beneficiaryVerifiedData?.fullName
  return named?.trim() || undefined
}

/**
 * Who holds an external account: its beneficiary, else (a wallet has none) the customer it belongs to, else the
 * platform for one of its own.
 */
export function accountHolder(account: ExternalFields, ownerName?: string | null): string {
  return beneficiaryName(account) ?? (account.customerId ? ownerName || 'Customer' : PLATFORM)
}

/** "Priya Raman · US bank …3210", "Jane Smith · Spark …f00d": the holder, the rail and the last digits. */
export function externalAccountLabel(account: ExternalFields, ownerName?: string | null): string {
  const rail = `${shortTypeName(account.accountInfo.accountType)} ${lastDigits(account)}`.trim()
  return `${accountHolder(account, ownerName)} · ${rail}`
}

/** Labels by id, as the cache answers them beside a window of rows. */
export type Names = Readonly<Record<string, string>>

/** The label of an id when one is known, else the id shortened (the full id stays one copy-click away on screen). */
export function labelOf(id: string | null | undefined, names: Names | undefined): string {
  if (!id) return '—'
  return names?.[id] ?? shortenId(id)
}

type Party = { accountId?: unknown } | undefined
/** The ids a transaction names, whose labels it is shown with: its customer, the account it left, the one it reached. */
export function transactionParties(t: object): string[] {
  const r = t as { customerId?: unknown; source?: Party; destination?: Party }
  return [r.customerId, r.source?.accountId, r.destination?.accountId].filter(
    (id): id is string => typeof id === 'string' && id.length > 0
  )
}
