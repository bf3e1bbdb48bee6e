import { z } from 'zod'
import { ACCOUNT_TYPE_CURRENCY, AccountInfo, AccountInfoInput, isWalletAccountType } from './account-info'
import { beneficiaryMinimumIssues, BeneficiaryInput } from './beneficiary'
import { closedEnum, openEnum } from './enums'
import { CustomerId, ExternalAccountRef } from './ids'
import { QueryCursor, QueryLimit } from './list'
import { currencyCode } from './money'
import { SPARK_ADDRESS_PREFIX } from './spark'
import { nonBlank } from './text'

/** External account statuses of spec 3.1. */
export const EXTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'UNDER_REVIEW', 'INACTIVE'] as const
/** Extra statuses the spec's ramp guidance lists (FAILED: verification failed; DISABLED: manually disabled). */
const RAMP_EXTERNAL_ACCOUNT_STATUSES = ['FAILED', 'DISABLED'] as const
export const KNOWN_EXTERNAL_ACCOUNT_STATUSES = [
  ...EXTERNAL_ACCOUNT_STATUSES,
  ...RAMP_EXTERNAL_ACCOUNT_STATUSES
] as const
const ExternalAccountStatus = openEnum(KNOWN_EXTERNAL_ACCOUNT_STATUSES)
type ExternalAccountStatus = z.infer<typeof ExternalAccountStatus>

export const CRYPTO_NETWORKS = [
  'SOLANA_MAINNET',
  'SOLANA_DEVNET',
  'ETHEREUM_MAINNET',
  'ETHEREUM_TESTNET',
  'BASE_MAINNET',
  'BASE_TESTNET',
  'SPARK_MAINNET',
  'SPARK_TESTNET',
  'LIGHTNING_MAINNET',
  'LIGHTNING_REGTEST'
] as const
type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number]

/** Which networks a wallet accountType can be on (first word of the network names). */
export const WALLET_NETWORKS: Readonly<Record<string, readonly CryptoNetwork[]>> = {
  SPARK_WALLET: ['SPARK_MAINNET', 'SPARK_TESTNET'],
  SOLANA_WALLET: ['SOLANA_MAINNET', 'SOLANA_DEVNET'],
  ETHEREUM_WALLET: ['ETHEREUM_MAINNET', 'ETHEREUM_TESTNET'],
  BASE_WALLET: ['BASE_MAINNET', 'BASE_TESTNET'],
  LIGHTNING: ['LIGHTNING_MAINNET', 'LIGHTNING_REGTEST']
}

export const BENEFICIARY_VERIFICATION_STATUSES = [
  'MATCHED',
  'PARTIAL_MATCH',
  'NOT_MATCHED',
  'UNSUPPORTED',
  'CHECKED_BY_RECEIVING_FI',
  'PENDING'
] as const
const BeneficiaryVerificationStatus = openEnum(BENEFICIARY_VERIFICATION_STATUSES)
type BeneficiaryVerificationStatus = z.infer<typeof BeneficiaryVerificationStatus>

/** External account of responses (spec 2.5). */
export const ExternalAccount = z.looseObject({
  id: ExternalAccountRef,
  status: ExternalAccountStatus,
  currency: z.string(),
  accountInfo: AccountInfo,
  customerId: z.string().nullable().optional(),
  platformAccountId: z.string().optional(),
  defaultUmaDepositAccount: z.boolean().optional(),
  beneficiaryVerificationStatus: BeneficiaryVerificationStatus.optional(),
  beneficiaryVerifiedData: z.looseObject({ fullName: z.string().optional() }).optional(),
  cryptoNetwork: openEnum(CRYPTO_NETWORKS).optional(),
  createdAt: z.string().optional()
})
export type ExternalAccount = z.infer<typeof ExternalAccount>

/**
 * The network a wallet's address names by itself, when it does: a `spark1…` address is on Spark's main network. The
 * current published API dropped `cryptoNetwork` and the official clients no longer send it (docs/real-service.md).
 */
function networkOfAddress(info: { accountType: string; address?: unknown }): CryptoNetwork | undefined {
  const address = typeof info.address === 'string' ? info.address.toLowerCase() : ''
  return info.accountType === 'SPARK_WALLET' && address.startsWith(SPARK_ADDRESS_PREFIX) ? 'SPARK_MAINNET' : undefined
}

/** The network of a create request's wallet: as given, or as its address names it. */
export function cryptoNetworkOf(req: {
  cryptoNetwork?: CryptoNetwork | undefined
  accountInfo: { accountType: string; address?: unknown }
}): CryptoNetwork | undefined {
  return req.cryptoNetwork ?? networkOfAddress(req.accountInfo)
}

/**
 * POST /customers/external-accounts body (spec 4.2). Besides each field's format:
 * - cryptoNetwork is required for wallets whose address does not name it (a Spark address does), must be a network
 *   of that wallet, and is forbidden for bank accounts;
 * - a bank account needs accountInfo.beneficiary, meeting the minimums of its currency (spec 2.6);
 * - a bank account type holds one currency (USD for US_ACCOUNT, GBP for GBP_ACCOUNT...), which must be `currency`.
 */
export const ExternalAccountCreateRequest = z
  .strictObject({
    currency: currencyCode('Currency'),
    accountInfo: AccountInfoInput,
    customerId: CustomerId.optional(),
    platformAccountId: nonBlank('Platform account id').optional(),
    defaultUmaDepositAccount: z
      .boolean({ error: 'Whether this is the customer’s default deposit account must be true or false' })
      .optional(),
    cryptoNetwork: closedEnum(CRYPTO_NETWORKS, 'Network').optional()
  })
  .superRefine((req, ctx) => {
    const info = req.accountInfo
    const type = info.accountType
    if (isWalletAccountType(type)) {
      const networks = WALLET_NETWORKS[type] ?? []
      if (cryptoNetworkOf(req) === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['cryptoNetwork'],
          message: `Choose the network of this ${type} (one of ${networks.join(', ')})`
        })
      } else if (req.cryptoNetwork !== undefined && networks.length > 0 && !networks.includes(req.cryptoNetwork)) {
        ctx.addIssue({
          code: 'custom',
          path: ['cryptoNetwork'],
          message: `The network ${req.cryptoNetwork} does not fit a ${type} (use one of ${networks.join(', ')})`
        })
      }
      return
    }
    if (req.cryptoNetwork !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['cryptoNetwork'],
        message: `A network is only for crypto wallets, not for a ${type} bank account`
      })
    }
    const expected = (ACCOUNT_TYPE_CURRENCY as Record<string, string>)[type]
    if (expected !== undefined && req.currency !== expected) {
      ctx.addIssue({
        code: 'custom',
        path: ['currency'],
        message: `A ${type} holds ${expected}, not ${req.currency}`
      })
    }
    const beneficiary = 'beneficiary' in info ? info.beneficiary : undefined
    if (beneficiary === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['accountInfo', 'beneficiary'],
        message: `Enter the beneficiary, who receives the money: required for a bank account (${type})`
      })
      return
    }
    for (const issue of beneficiaryMinimumIssues(req.currency, beneficiary)) {
      ctx.addIssue({ code: 'custom', path: ['accountInfo', 'beneficiary', ...issue.path], message: issue.message })
    }
  })
export type ExternalAccountCreateRequest = z.infer<typeof ExternalAccountCreateRequest>

/**
 * PATCH /customers/external-accounts/{id} body (spec 4.6): only platformAccountId and beneficiary, at least one.
 * The beneficiary minimums depend on the stored account's currency: check them with beneficiaryMinimumIssues.
 */
export const ExternalAccountUpdateRequest = z
  .strictObject({
    platformAccountId: nonBlank('Platform account id').optional(),
    beneficiary: BeneficiaryInput.optional()
  })
  .refine((u) => u.platformAccountId !== undefined || u.beneficiary !== undefined, {
    error: 'Change the platform account id or the beneficiary (only these can be changed on an external account)'
  })
export type ExternalAccountUpdateRequest = z.infer<typeof ExternalAccountUpdateRequest>

/**
 * The update of one stored account: ExternalAccountUpdateRequest plus what depends on that account (spec 2.6, 4.6):
 * a wallet has no beneficiary, and a bank account's new beneficiary meets the minimums of its currency, like creation.
 * Issue paths are request paths (`beneficiary.address.city`), so a form shows each at its field.
 */
export function externalAccountUpdateFor(account: { currency: string; accountType: string }) {
  return ExternalAccountUpdateRequest.superRefine((req, ctx) => {
    if (req.beneficiary === undefined) return
    if (isWalletAccountType(account.accountType)) {
      ctx.addIssue({
        code: 'custom',
        path: ['beneficiary'],
        message: `A ${account.accountType} account has no beneficiary`
      })
      return
    }
    for (const issue of beneficiaryMinimumIssues(account.currency, req.beneficiary)) {
      ctx.addIssue({ code: 'custom', path: ['beneficiary', ...issue.path], message: issue.message })
    }
  })
}

/** GET /customers/external-accounts query (spec 4.3). */
export const ExternalAccountListQuery = z.strictObject({
  customerId: CustomerId.optional(),
  currency: currencyCode('currency').optional(),
  accountType: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]*$/, { error: 'accountType must be an upper-case name such as SPARK_WALLET' })
    .optional(),
  limit: QueryLimit,
  cursor: QueryCursor.optional()
})
export type ExternalAccountListQuery = z.infer<typeof ExternalAccountListQuery>

/**
 * GET /platform/external-accounts query: the spec (4.4) has currency only and no paging; the published API pages the
 * list with limit (default 20, as every list) and cursor; the sandbox speaks the published dialect here
 * (docs/real-service.md).
 */
export const PlatformExternalAccountQuery = z.strictObject({
  currency: currencyCode('currency').optional(),
  limit: QueryLimit,
  cursor: QueryCursor.optional()
})
export type PlatformExternalAccountQuery = z.infer<typeof PlatformExternalAccountQuery>
