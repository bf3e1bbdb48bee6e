import { describe, expect, it } from 'vitest'
import { ACCOUNT_TYPE_CURRENCY, INPUT_ACCOUNT_TYPES, WALLET_ACCOUNT_TYPES } from '../../../src/shared/api/account-info'
import {
  BENEFICIARY_VERIFICATION_STATUSES,
  CRYPTO_NETWORKS,
  cryptoNetworkOf,
  ExternalAccount,
  ExternalAccountCreateRequest,
  ExternalAccountListQuery,
  ExternalAccountUpdateRequest,
  externalAccountUpdateFor,
  EXTERNAL_ACCOUNT_STATUSES,
  PlatformExternalAccountQuery
} from '../../../src/shared/api/external-account'
import { SPARK, VALID_INFO } from './fixtures'
import { expectIssue, expectValid, issuesOf } from './helpers'

const usAddress = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' }
const fullBeneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe', address: usAddress }

const NETWORK_OF: Record<string, string> = {
  SPARK_WALLET: 'SPARK_MAINNET',
  SOLANA_WALLET: 'SOLANA_MAINNET',
  BASE_WALLET: 'BASE_MAINNET',
  ETHEREUM_WALLET: 'ETHEREUM_MAINNET'
}
const CURRENCY_OF: Record<string, string> = {
  ...ACCOUNT_TYPE_CURRENCY,
  SPARK_WALLET: 'BTC',
  SOLANA_WALLET: 'USDC',
  BASE_WALLET: 'USDC',
  ETHEREUM_WALLET: 'USDC'
}

/** A valid create request for each account type. */
function validRequest(type: (typeof INPUT_ACCOUNT_TYPES)[number]): Record<string, unknown> {
  const wallet = (WALLET_ACCOUNT_TYPES as readonly string[]).includes(type)
  return {
    customerId: 'Customer:019542f5-b3e7-1d02-0000-000000000001',
    currency: CURRENCY_OF[type],
    accountInfo: wallet ? VALID_INFO[type] : { ...VALID_INFO[type], beneficiary: fullBeneficiary },
    ...(wallet ? { cryptoNetwork: NETWORK_OF[type] } : {})
  }
}

describe('ExternalAccountCreateRequest', () => {
  it.each(INPUT_ACCOUNT_TYPES)('accepts a valid %s request', (type) => {
    expectValid(ExternalAccountCreateRequest, validRequest(type))
  })

  it('accepts the optional fields and a platform account (no customerId)', () => {
    const req: Record<string, unknown> = {
      ...validRequest('GBP_ACCOUNT'),
      platformAccountId: 'ext_1',
      defaultUmaDepositAccount: true
    }
    delete req.customerId
    expectValid(ExternalAccountCreateRequest, req)
  })

  describe('cryptoNetwork', () => {
    it('may be left out of a Spark wallet, whose spark1 address names its network', () => {
      const req = validRequest('SPARK_WALLET')
      delete req.cryptoNetwork
      expectValid(ExternalAccountCreateRequest, req)
      expect(cryptoNetworkOf(ExternalAccountCreateRequest.parse(req))).toBe('SPARK_MAINNET')
      expect(cryptoNetworkOf(ExternalAccountCreateRequest.parse(validRequest('SOLANA_WALLET')))).toBe('SOLANA_MAINNET')
    })
    it.each(['SOLANA_WALLET', 'BASE_WALLET', 'ETHEREUM_WALLET'] as const)('is required for %s', (type) => {
      const req = validRequest(type)
      delete req.cryptoNetwork
      expectIssue(ExternalAccountCreateRequest, req, 'cryptoNetwork', `Choose the network of this ${type}`)
    })
    it.each(['US_ACCOUNT', 'GBP_ACCOUNT', 'MXN_ACCOUNT', 'KES_ACCOUNT'] as const)('is forbidden for %s', (type) => {
      expectIssue(
        ExternalAccountCreateRequest,
        { ...validRequest(type), cryptoNetwork: 'SPARK_MAINNET' },
        'cryptoNetwork',
        'A network is only for crypto wallets'
      )
    })
    it.each([
      ['SPARK_WALLET', 'SPARK_TESTNET', true],
      ['SPARK_WALLET', 'SOLANA_MAINNET', false],
      ['SOLANA_WALLET', 'SOLANA_DEVNET', true],
      ['SOLANA_WALLET', 'ETHEREUM_MAINNET', false],
      ['BASE_WALLET', 'BASE_TESTNET', true],
      ['ETHEREUM_WALLET', 'BASE_MAINNET', false]
    ] as const)('%s on %s -> %s', (type, cryptoNetwork, ok) => {
      expect(ExternalAccountCreateRequest.safeParse({ ...validRequest(type), cryptoNetwork }).success).toBe(ok)
    })
    it('rejects an unknown network', () => {
      expectIssue(
        ExternalAccountCreateRequest,
        { ...validRequest('SPARK_WALLET'), cryptoNetwork: 'DOGE' },
        'cryptoNetwork',
        'one of'
      )
    })
  })

  describe('beneficiary', () => {
    it.each(INPUT_ACCOUNT_TYPES.filter((t) => !(WALLET_ACCOUNT_TYPES as readonly string[]).includes(t)))(
      'is required for the bank account %s',
      (type) => {
        const req = validRequest(type)
        req.accountInfo = VALID_INFO[type]
        expectIssue(
          ExternalAccountCreateRequest,
          req,
          'accountInfo.beneficiary',
          'Enter the beneficiary, who receives the money'
        )
      }
    )
    it.each([
      [
        'US_ACCOUNT',
        { beneficiaryType: 'INDIVIDUAL', fullName: 'J' },
        'accountInfo.beneficiary.address',
        'for a USD account'
      ],
      [
        'USD_ACCOUNT',
        { ...fullBeneficiary, address: { ...usAddress, city: undefined } },
        'accountInfo.beneficiary.address.city',
        'Enter the beneficiary’s city'
      ],
      [
        'GBP_ACCOUNT',
        { beneficiaryType: 'INDIVIDUAL', fullName: 'J' },
        'accountInfo.beneficiary.address',
        'for a GBP account'
      ],
      [
        'EUR_ACCOUNT',
        { beneficiaryType: 'INDIVIDUAL', fullName: 'J' },
        'accountInfo.beneficiary.address',
        'for a EUR account'
      ],
      [
        'MXN_ACCOUNT',
        { beneficiaryType: 'INDIVIDUAL' },
        'accountInfo.beneficiary.fullName',
        'Enter the beneficiary’s full name'
      ],
      ['BRL_ACCOUNT', { fullName: 'J' }, 'accountInfo.beneficiary.beneficiaryType', 'Beneficiary type is required']
    ] as const)('%s: minimum enforced at %s', (type, beneficiary, path, message) => {
      const req = validRequest(type)
      req.accountInfo = { ...VALID_INFO[type], beneficiary }
      expectIssue(ExternalAccountCreateRequest, req, path, message)
    })
    it.each(['MXN_ACCOUNT', 'BRL_ACCOUNT', 'PHP_ACCOUNT'] as const)('%s needs no address', (type) => {
      const req = validRequest(type)
      req.accountInfo = { ...VALID_INFO[type], beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Juan' } }
      expectValid(ExternalAccountCreateRequest, req)
    })
  })

  describe('currency matches the account type', () => {
    it.each([
      ['US_ACCOUNT', 'EUR'],
      ['GBP_ACCOUNT', 'USD'],
      ['MXN_ACCOUNT', 'USD'],
      ['KES_ACCOUNT', 'TZS'],
      ['XOF_ACCOUNT', 'XAF']
    ] as const)('%s in %s is rejected', (type, currency) => {
      expectIssue(ExternalAccountCreateRequest, { ...validRequest(type), currency }, 'currency', `A ${type} holds`)
    })
    it('lets a Spark wallet hold BTC or another token', () => {
      expectValid(ExternalAccountCreateRequest, { ...validRequest('SPARK_WALLET'), currency: 'USDB' })
    })
  })

  it.each([
    [{ currency: undefined }, 'currency', 'Currency is required'],
    [{ currency: 'usd' }, 'currency', 'upper-case'],
    [{ customerId: 'cust_1' }, 'customerId', '"Customer:<identifier>"'],
    [{ platformAccountId: '' }, 'platformAccountId', 'must not be empty'],
    [{ defaultUmaDepositAccount: 'yes' }, 'defaultUmaDepositAccount', 'true or false'],
    [{ accountInfo: undefined }, 'accountInfo', 'accountInfo must be an object'],
    [{ status: 'ACTIVE' }, '', 'Unrecognized key'],
    [{ beneficiary: fullBeneficiary }, '', 'Unrecognized key']
  ])('%#: %j fails at %s', (patch, path, message) => {
    expectIssue(ExternalAccountCreateRequest, { ...validRequest('US_ACCOUNT'), ...patch }, path, message)
  })

  it('reports a format error inside accountInfo with its path', () => {
    const req = validRequest('US_ACCOUNT')
    req.accountInfo = { ...(req.accountInfo as object), routingNumber: '123' }
    expect(issuesOf(ExternalAccountCreateRequest, req)).toContainEqual({
      path: 'accountInfo.routingNumber',
      message: 'US routing number must be exactly 9 digits'
    })
  })
})

describe('ExternalAccountUpdateRequest', () => {
  it.each([
    [{ platformAccountId: 'acc_2' }],
    [{ beneficiary: fullBeneficiary }],
    [{ platformAccountId: 'acc_2', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'New Name' } }]
  ])('accepts %j', (body) => {
    expectValid(ExternalAccountUpdateRequest, body)
  })
  it.each([
    [{}, '', 'Change the platform account id or the beneficiary'],
    [{ currency: 'USD' }, '', 'Unrecognized key'],
    [{ accountInfo: VALID_INFO.US_ACCOUNT }, '', 'Unrecognized key'],
    [{ status: 'ACTIVE', platformAccountId: 'x' }, '', 'Unrecognized key'],
    [{ beneficiary: { beneficiaryType: 'INDIVIDUAL' } }, 'beneficiary.fullName', 'Enter the beneficiary’s full name']
  ])('%#: rejects %j', (body, path, message) => {
    expectIssue(ExternalAccountUpdateRequest, body, path, message)
  })
})

describe('externalAccountUpdateFor: the update of one stored account', () => {
  const gbp = externalAccountUpdateFor({ currency: 'GBP', accountType: 'GBP_ACCOUNT' })
  const usd = externalAccountUpdateFor({ currency: 'USD', accountType: 'USD_ACCOUNT' })
  const mxn = externalAccountUpdateFor({ currency: 'MXN', accountType: 'MXN_ACCOUNT' })
  const wallet = externalAccountUpdateFor({ currency: 'BTC', accountType: 'SPARK_WALLET' })

  it('applies the per-currency beneficiary minimums of creation, at the request path of each field', () => {
    expectIssue(
      gbp,
      { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' } },
      'beneficiary.address',
      'required'
    )
    expectIssue(
      usd,
      { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'No Address' } },
      'beneficiary.address',
      '(required for a USD account)'
    )
    expectValid(mxn, { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ana Ruiz' } })
    expectValid(usd, { beneficiary: fullBeneficiary })
  })

  it('refuses a beneficiary on a wallet but lets its platformAccountId change', () => {
    expectIssue(wallet, { beneficiary: fullBeneficiary }, 'beneficiary', 'A SPARK_WALLET account has no beneficiary')
    expectValid(wallet, { platformAccountId: 'w-1' })
  })

  it('keeps the request rules: only the two fields, at least one of them', () => {
    expectIssue(gbp, {}, '', 'Change the platform account id or the beneficiary')
    expectIssue(gbp, { platformAccountId: 'x', currency: 'EUR' }, '', 'Unrecognized key')
    expectIssue(gbp, { platformAccountId: '   ' }, 'platformAccountId', '')
  })
})

describe('ExternalAccountListQuery', () => {
  it('applies the default page size', () => {
    expect(ExternalAccountListQuery.parse({})).toEqual({ limit: 20 })
  })
  it('accepts query-string values', () => {
    expect(
      ExternalAccountListQuery.parse({
        customerId: 'Customer:1',
        currency: 'USD',
        accountType: 'SPARK_WALLET',
        limit: '100',
        cursor: 'abc'
      })
    ).toEqual({ customerId: 'Customer:1', currency: 'USD', accountType: 'SPARK_WALLET', limit: 100, cursor: 'abc' })
  })
  it.each([
    [{ limit: '0' }, 'limit', 'at least 1'],
    [{ limit: 101 }, 'limit', 'at most 100'],
    [{ limit: '1.5' }, 'limit', 'whole number'],
    [{ limit: 'ten' }, 'limit', 'whole number'],
    [{ limit: '' }, 'limit', 'whole number'],
    [{ customerId: 'x' }, 'customerId', 'Customer:'],
    [{ accountType: 'spark' }, 'accountType', 'upper-case'],
    [{ cursor: '' }, 'cursor', 'must not be empty'],
    [{ page: '2' }, '', 'Unrecognized key']
  ])('%#: rejects %j', (q, path, message) => {
    expectIssue(ExternalAccountListQuery, q, path, message)
  })
})

describe('PlatformExternalAccountQuery', () => {
  it('takes currency and the published paging (limit default 20, cursor), nothing else', () => {
    expect(PlatformExternalAccountQuery.parse({ currency: 'USD' })).toEqual({ currency: 'USD', limit: 20 })
    expect(PlatformExternalAccountQuery.parse({ limit: '5', cursor: 'c' })).toEqual({ limit: 5, cursor: 'c' })
    expectIssue(PlatformExternalAccountQuery, { limit: 0 }, 'limit', '')
    expectIssue(PlatformExternalAccountQuery, { customerId: 'x' }, '', 'Unrecognized key')
  })
})

describe('ExternalAccount (response)', () => {
  const account = {
    id: 'ExternalAccount:e85dcbd6',
    status: 'ACTIVE',
    currency: 'BTC',
    customerId: 'Customer:1',
    cryptoNetwork: 'SPARK_MAINNET',
    createdAt: '2025-10-03T12:30:00Z',
    accountInfo: { accountType: 'SPARK_WALLET', address: SPARK }
  }
  it('parses a wallet account', () => {
    expect(ExternalAccount.parse(account)).toEqual(account)
  })
  it('keeps unknown fields and accepts unknown enum values', () => {
    const a = {
      ...account,
      status: 'SUSPENDED',
      beneficiaryVerificationStatus: 'SOMETHING_NEW',
      cryptoNetwork: 'TRON_MAINNET',
      accountInfo: { accountType: 'TRON_WALLET', address: 'T...' },
      riskScore: 3
    }
    expect(ExternalAccount.parse(a)).toEqual(a)
  })
  it('accepts a platform account with customerId null', () => {
    expect(ExternalAccount.safeParse({ ...account, customerId: null }).success).toBe(true)
  })
  it('reads beneficiaryVerifiedData', () => {
    const a = {
      ...account,
      beneficiaryVerificationStatus: 'PARTIAL_MATCH',
      beneficiaryVerifiedData: { fullName: 'J DOE', extra: 1 }
    }
    expect(ExternalAccount.parse(a).beneficiaryVerifiedData).toEqual({ fullName: 'J DOE', extra: 1 })
  })
  it.each(['id', 'status', 'currency', 'accountInfo'])('requires %s', (key) => {
    const a: Record<string, unknown> = { ...account }
    delete a[key]
    expect(ExternalAccount.safeParse(a).success).toBe(false)
  })
  it('knows the listed statuses, networks and verification results', () => {
    expect([...EXTERNAL_ACCOUNT_STATUSES]).toEqual(['PENDING', 'ACTIVE', 'UNDER_REVIEW', 'INACTIVE'])
    expect(CRYPTO_NETWORKS).toHaveLength(10)
    expect(BENEFICIARY_VERIFICATION_STATUSES).toContain('CHECKED_BY_RECEIVING_FI')
  })
})
