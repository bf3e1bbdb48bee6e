import { describe, expect, it } from 'vitest'
import {
  ACCOUNT_TYPES,
  AccountInfo,
  AccountInfoInput,
  accountInfoIdentifier,
  FORMAT_RULES,
  INPUT_ACCOUNT_TYPES,
  type InputAccountType,
  WALLET_ACCOUNT_TYPES
} from '../../../src/shared/api/account-info'
import { SPARK, VALID_INFO } from './fixtures'
import { expectIssue, expectValid, issuesOf } from './helpers'

/** Valid and invalid values of every rule of the 2.6 format table. */
const RULE_CASES: Record<(typeof FORMAT_RULES)[number]['id'], { valid: string[]; invalid: string[] }> = {
  usRoutingNumber: {
    valid: ['021000021', '000000000'],
    invalid: ['02100002', '0210000211', '02100002a', '021_000_021', '021.000.021', '']
  },
  usAccountNumber: {
    valid: ['1234', '12345678901234567'],
    invalid: ['123', '123456789012345678', '1234a', '12/34', '']
  },
  mxnClabe: {
    valid: ['123456789012345678'],
    invalid: ['12345678901234567', '1234567890123456789', '12345678901234567x']
  },
  ngnAccountNumber: { valid: ['0123456789'], invalid: ['012345678', '01234567890', '012345678a'] },
  cadBankCode: { valid: ['001', '999'], invalid: ['01', '0001', 'a01'] },
  cadBranchCode: { valid: ['00012'], invalid: ['0012', '000123', '0001a'] },
  cadAccountNumber: { valid: ['1234567', '123456789012'], invalid: ['123456', '1234567890123', '123456a'] },
  phpAccountNumber: { valid: ['12345678', '1234567890123456'], invalid: ['1234567', '12345678901234567', '1234567a'] },
  gbpSortCode: { valid: ['123456'], invalid: ['12345', '1234567', '12-34-5', '12.34.56', '12345a'] },
  gbpAccountNumber: { valid: ['12345678'], invalid: ['1234567', '123456789', '1234567a'] },
  zarAccountNumber: { valid: ['123456789', '1234567890123'], invalid: ['12345678', '12345678901234', '12345678a'] },
  kesPhone: { valid: ['+254712345678'], invalid: ['+25471234567', '+2547123456789', '254712345678', '+255712345678'] },
  tzsPhone: { valid: ['+255712345678'], invalid: ['+25571234567', '+2557123456789', '255712345678', '+254712345678'] },
  zmwPhone: { valid: ['+260712345678'], invalid: ['+26071234567', '+2607123456789', '260712345678', '+254712345678'] },
  rwfPhone: { valid: ['+250712345678'], invalid: ['+25071234567', '+2507123456789', '250712345678', '+254712345678'] },
  mwkPhone: { valid: ['+265712345678'], invalid: ['+26571234567', '+2657123456789', '265712345678', '+254712345678'] },
  ugxPhone: { valid: ['+256712345678'], invalid: ['+25671234567', '+2567123456789', '256712345678', '+254712345678'] },
  xofPhone: {
    valid: ['+221771234567', '+2250712345678', '+22912345678', '+229123456789'],
    invalid: [
      '+22177123456',
      '+2217712345678',
      '+225071234567',
      '+22507123456789',
      '+2291234567',
      '+2291234567890',
      '+228123456789',
      '221771234567'
    ]
  }
}

/** XOF region that matches each valid XOF phone (region must agree with the calling code). */
function xofRegion(phone: string): string {
  return phone.startsWith('+221') ? 'SN' : phone.startsWith('+225') ? 'CI' : 'BJ'
}

describe('every valid base accountInfo parses', () => {
  it.each(INPUT_ACCOUNT_TYPES)('%s', (type) => {
    expectValid(AccountInfoInput, VALID_INFO[type])
  })
})

describe('FORMAT_RULES covers the format table of spec 2.6', () => {
  it('has one entry per item of the table', () => {
    expect(FORMAT_RULES.map((r) => r.id).sort()).toEqual(Object.keys(RULE_CASES).sort())
  })
  it('uses the reference field names', () => {
    const fields = Object.fromEntries(FORMAT_RULES.map((r) => [r.id, r.field]))
    expect(fields).toMatchObject({
      usRoutingNumber: 'routingNumber',
      mxnClabe: 'clabeNumber',
      cadBankCode: 'bankCode',
      cadBranchCode: 'branchCode',
      gbpSortCode: 'sortCode',
      kesPhone: 'phoneNumber',
      xofPhone: 'phoneNumber'
    })
  })
})

const ruleRows = FORMAT_RULES.flatMap((rule) =>
  rule.accountTypes.map((accountType) => ({ rule, accountType, cases: RULE_CASES[rule.id] }))
)

describe.each(ruleRows)('$rule.item on $accountType', ({ rule, accountType, cases }) => {
  const withValue = (value: string | undefined) => {
    const info: Record<string, unknown> = { ...VALID_INFO[accountType], [rule.field]: value }
    if (accountType === 'XOF_ACCOUNT' && value !== undefined) info.region = xofRegion(value)
    return info
  }
  it.each(cases.valid)('accepts %j', (value) => {
    expectValid(AccountInfoInput, withValue(value))
  })
  it.each(cases.invalid)('rejects %j with the rule message', (value) => {
    const issues = issuesOf(AccountInfoInput, withValue(value))
    expect(issues).toContainEqual({ path: rule.field, message: rule.message })
  })
  it('says the field is required when missing', () => {
    const info: Record<string, unknown> = { ...VALID_INFO[accountType] }
    delete info[rule.field]
    expectIssue(AccountInfoInput, info, rule.field, `Enter the ${rule.item}`)
  })
  it('rejects a number where a string of digits is expected', () => {
    expect(AccountInfoInput.safeParse(withValueRaw(accountType, rule.field, 123456789)).success).toBe(false)
  })
})

function withValueRaw(type: InputAccountType, field: string, value: unknown) {
  return { ...VALID_INFO[type], [field]: value }
}

describe('US bank accounts', () => {
  it('US_ACCOUNT (spec shape) requires accountCategory CHECKING or SAVINGS', () => {
    const info: Record<string, unknown> = { ...VALID_INFO.US_ACCOUNT }
    delete info.accountCategory
    expectIssue(AccountInfoInput, info, 'accountCategory', 'Account category is required')
    expectIssue(AccountInfoInput, { ...info, accountCategory: 'BROKERAGE' }, 'accountCategory', 'CHECKING, SAVINGS')
    expectIssue(AccountInfoInput, { ...info, accountCategory: 'checking' }, 'accountCategory', 'CHECKING, SAVINGS')
    expectValid(AccountInfoInput, { ...info, accountCategory: 'SAVINGS' })
  })
  it('USD_ACCOUNT takes the published bankAccountType, optional as published, and still reads accountCategory', () => {
    const base = { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' }
    // The official CLI has no flag for it: the published API takes checking.
    expectValid(AccountInfoInput, base)
    expectValid(AccountInfoInput, { ...base, bankAccountType: 'CHECKING' })
    expectValid(AccountInfoInput, { ...base, accountCategory: 'SAVINGS' })
    expectValid(AccountInfoInput, { ...base, bankAccountType: 'SAVINGS', accountCategory: 'SAVINGS' })
    expectIssue(AccountInfoInput, { ...base, bankAccountType: 'BROKERAGE' }, 'bankAccountType', 'CHECKING, SAVINGS')
    expectIssue(
      AccountInfoInput,
      { ...base, bankAccountType: 'CHECKING', accountCategory: 'SAVINGS' },
      'accountCategory',
      'disagree'
    )
  })
  it('accepts bankName and paymentRails', () => {
    expectValid(AccountInfoInput, { ...VALID_INFO.US_ACCOUNT, bankName: 'Chase', paymentRails: ['ACH', 'WIRE'] })
  })
  it.each([[[]], [['ach']], ['ACH']])('rejects paymentRails %j', (paymentRails) => {
    expect(AccountInfoInput.safeParse({ ...VALID_INFO.US_ACCOUNT, paymentRails }).success).toBe(false)
  })
})

describe('bankName required for Philippines, Nigeria, South Africa', () => {
  it.each(['PHP_ACCOUNT', 'NGN_ACCOUNT', 'ZAR_ACCOUNT'] as const)('%s', (type) => {
    const info: Record<string, unknown> = { ...VALID_INFO[type] }
    delete info.bankName
    expectIssue(AccountInfoInput, info, 'bankName', 'Choose the bank: required for')
    expectIssue(AccountInfoInput, { ...info, bankName: ' ' }, 'bankName', 'must not be empty')
  })
})

describe('mobile money needs a provider', () => {
  // The mobile-money types are those whose valid example names a provider: KES, TZS, ZMW, RWF, MWK, UGX and XOF.
  const mobileMoneyTypes = INPUT_ACCOUNT_TYPES.filter((t) => 'provider' in VALID_INFO[t])
  it('covers the seven mobile-money types', () => expect(mobileMoneyTypes).toHaveLength(7))
  it.each(mobileMoneyTypes)('%s', (type) => {
    const info: Record<string, unknown> = { ...VALID_INFO[type] }
    delete info.provider
    expectIssue(AccountInfoInput, info, 'provider', 'Enter the mobile-money provider')
  })
})

describe('XOF region', () => {
  it.each([
    ['+221771234567', 'SN', true],
    ['+2250712345678', 'CI', true],
    ['+22912345678', 'BJ', true],
    ['+221771234567', 'CI', false],
    ['+2250712345678', 'BJ', false],
    ['+22912345678', 'SN', false]
  ])('%s in %s -> %s', (phoneNumber, region, ok) => {
    expect(AccountInfoInput.safeParse({ ...VALID_INFO.XOF_ACCOUNT, phoneNumber, region }).success).toBe(ok)
  })
  it('says which region the phone belongs to', () => {
    expectIssue(
      AccountInfoInput,
      { ...VALID_INFO.XOF_ACCOUNT, region: 'BJ' },
      'region',
      'The country (BJ) does not match the phone number, which is from SN'
    )
  })
  it.each(['TG', 'sn', undefined])('rejects region %j', (region) => {
    expectIssue(AccountInfoInput, { ...VALID_INFO.XOF_ACCOUNT, region }, 'region', 'Country')
  })
})

describe('BRL, EUR, AED and other wallets', () => {
  it.each([
    [{ ...VALID_INFO.BRL_ACCOUNT, taxId: '123.456.789' }, 'taxId', '11 to 14 digits'],
    [{ ...VALID_INFO.BRL_ACCOUNT, pixKey: '' }, 'pixKey', 'must not be empty'],
    [{ ...VALID_INFO.BRL_ACCOUNT, pixKeyType: 'IBAN' }, 'pixKeyType', 'CPF, CNPJ, EMAIL, PHONE, RANDOM'],
    [{ ...VALID_INFO.EUR_ACCOUNT, iban: 'DE89 3704' }, 'iban', 'IBAN must be'],
    [{ ...VALID_INFO.EUR_ACCOUNT, swiftCode: 'DEUT' }, 'swiftCode', '8 or 11'],
    [{ ...VALID_INFO.AED_ACCOUNT, iban: 'DE89370400440532013000' }, 'iban', 'AE followed by 21 digits'],
    [{ ...VALID_INFO.AED_ACCOUNT, iban: undefined }, 'iban', 'Enter the IBAN'],
    [{ ...VALID_INFO.AED_ACCOUNT, swiftCode: 'ebil-ae' }, 'swiftCode', '8 or 11'],
    [{ ...VALID_INFO.SOLANA_WALLET, address: '0OIl' }, 'address', 'base58'],
    [{ ...VALID_INFO.BASE_WALLET, address: '0x123' }, 'address', '40 hexadecimal'],
    [{ ...VALID_INFO.ETHEREUM_WALLET, address: undefined }, 'address', 'Enter the Ethereum wallet address']
  ])('%#: fails at %s', (info, path, message) => {
    expectIssue(AccountInfoInput, info, path, message)
  })
})

describe('SPARK_WALLET', () => {
  it.each([
    [SPARK.toUpperCase(), true],
    [SPARK.slice(0, -1) + (SPARK.endsWith('q') ? 'p' : 'q'), false],
    ['spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu', false],
    [SPARK.slice(0, 40) + SPARK.slice(40).toUpperCase(), false]
  ])('%s -> %s', (address, ok) => {
    expect(AccountInfoInput.safeParse({ accountType: 'SPARK_WALLET', address }).success).toBe(ok)
  })
  it('explains a wrong length', () => {
    expectIssue(
      AccountInfoInput,
      { accountType: 'SPARK_WALLET', address: 'spark1abc' },
      'address',
      'exactly 87 characters'
    )
  })
  it('does not take a beneficiary (crypto wallets need none)', () => {
    expectIssue(
      AccountInfoInput,
      { ...VALID_INFO.SPARK_WALLET, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'J' } },
      '',
      'Unrecognized key'
    )
  })
})

describe('AccountInfoInput discriminator and strictness', () => {
  it.each([['CHF_ACCOUNT'], ['us_account'], [undefined], [7]])(
    'rejects accountType %j listing the supported types',
    (accountType) => {
      const issues = issuesOf(AccountInfoInput, { accountType })
      expect(issues).toHaveLength(1)
      expect(issues[0]?.message).toContain('accountType must be one of US_ACCOUNT')
    }
  )
  it.each(INPUT_ACCOUNT_TYPES)('%s rejects unknown keys', (type) => {
    expectIssue(AccountInfoInput, { ...VALID_INFO[type], nickname: 'x' }, '', 'Unrecognized key')
  })
  it('rejects a non-object', () => {
    expect(AccountInfoInput.safeParse('US_ACCOUNT').success).toBe(false)
  })
})

describe('AccountInfo (response)', () => {
  it('accepts an unknown accountType and keeps unknown members', () => {
    const info = { accountType: 'CHF_ACCOUNT', iban: 'CH93...', mystery: { a: 1 } }
    expect(AccountInfo.parse(info)).toEqual(info)
  })
  it('accepts the reference example with bankAccountType and a nested beneficiary', () => {
    const info = {
      accountType: 'USD_ACCOUNT',
      accountNumber: '12345678901',
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe' }
    }
    expect(AccountInfo.parse(info)).toEqual(info)
  })
  it('tolerates a beneficiary without beneficiaryType', () => {
    expect(AccountInfo.safeParse({ accountType: 'GBP_ACCOUNT', beneficiary: { fullName: 'X' } }).success).toBe(true)
  })
  it('still requires accountType', () => {
    expect(AccountInfo.safeParse({ accountNumber: '1' }).success).toBe(false)
  })
  it('lists the spec values among the known account types', () => {
    for (const t of ['US_ACCOUNT', 'USD_ACCOUNT', 'GBP_ACCOUNT', 'SPARK_WALLET', 'AED_ACCOUNT', 'BRL_ACCOUNT']) {
      expect(ACCOUNT_TYPES).toContain(t)
    }
    for (const t of INPUT_ACCOUNT_TYPES) expect(ACCOUNT_TYPES).toContain(t)
    for (const t of WALLET_ACCOUNT_TYPES) expect(ACCOUNT_TYPES).toContain(t)
  })
})

describe('accountInfoIdentifier', () => {
  it.each([
    [VALID_INFO.US_ACCOUNT, '123456789'],
    [VALID_INFO.MXN_ACCOUNT, '123456789012345678'],
    [VALID_INFO.EUR_ACCOUNT, 'DE89370400440532013000'],
    [VALID_INFO.KES_ACCOUNT, '+254712345678'],
    [VALID_INFO.SPARK_WALLET, SPARK],
    [{ accountType: 'X' }, undefined]
  ])('%#', (info, id) => {
    expect(accountInfoIdentifier(info)).toBe(id)
  })
})

describe('identifiers as people write them: separators out, the published form sent', () => {
  it.each([
    [{ ...VALID_INFO.EUR_ACCOUNT, iban: 'DE89 3704 0044 0532 0130 00' }, { iban: 'DE89370400440532013000' }],
    [{ ...VALID_INFO.EUR_ACCOUNT, iban: 'de89 3704 0044 0532 0130 00' }, { iban: 'DE89370400440532013000' }],
    [{ ...VALID_INFO.EUR_ACCOUNT, swiftCode: 'deut de ff' }, { swiftCode: 'DEUTDEFF' }],
    [{ ...VALID_INFO.AED_ACCOUNT, iban: 'AE07 0331 2345 6789 0123 456' }, { iban: 'AE070331234567890123456' }],
    [{ ...VALID_INFO.GBP_ACCOUNT, sortCode: '12-34-56' }, { sortCode: '123456' }],
    [{ ...VALID_INFO.GBP_ACCOUNT, sortCode: '12 34 56', accountNumber: '1234 5678' }, { accountNumber: '12345678' }],
    [{ ...VALID_INFO.USD_ACCOUNT, routingNumber: '021-000-021' }, { routingNumber: '021000021' }],
    [{ ...VALID_INFO.USD_ACCOUNT, routingNumber: ' 021000021 ' }, { routingNumber: '021000021' }],
    [{ ...VALID_INFO.MXN_ACCOUNT, clabeNumber: '032 180 000118359719' }, { clabeNumber: '032180000118359719' }],
    [{ ...VALID_INFO.CAD_ACCOUNT, accountNumber: '123-4567' }, { accountNumber: '1234567' }],
    [{ ...VALID_INFO.KES_ACCOUNT, phoneNumber: '+254 712 345 678' }, { phoneNumber: '+254712345678' }],
    [{ ...VALID_INFO.BRL_ACCOUNT, taxId: '123.456.789-09' }, { taxId: '12345678909' }],
    [{ ...VALID_INFO.BRL_ACCOUNT, taxId: '12.345.678/0001-95' }, { taxId: '12345678000195' }]
  ])('%#: %j', (info, sent) => {
    expect(expectValid(AccountInfoInput, info)).toMatchObject(sent)
  })
  it.each([
    [{ ...VALID_INFO.EUR_ACCOUNT, iban: 'DE89 3704 0044' }, 'iban', 'country code, 2 check digits and 11 to 30'],
    [{ ...VALID_INFO.GBP_ACCOUNT, sortCode: '12-34-5' }, 'sortCode', 'UK (GBP) sort code must be 6 digits'],
    [{ ...VALID_INFO.GBP_ACCOUNT, sortCode: '12/34/56' }, 'sortCode', 'UK (GBP) sort code must be 6 digits'],
    [{ ...VALID_INFO.USD_ACCOUNT, routingNumber: '021-000-02' }, 'routingNumber', 'exactly 9 digits'],
    [{ ...VALID_INFO.MXN_ACCOUNT, clabeNumber: '032 180 00011835971' }, 'clabeNumber', 'exactly 18 digits']
  ])('%#: a truly wrong value still gets its own message', (info, path, message) => {
    expectIssue(AccountInfoInput, info, path, message)
  })
})
