import { z } from 'zod'
import { ACCOUNT_TYPES, INPUT_ACCOUNT_TYPES } from './account-types'
import {
  AedAccountInfoInput,
  BrlAccountInfoInput,
  CadAccountInfoInput,
  EurAccountInfoInput,
  GbpAccountInfoInput,
  KesAccountInfoInput,
  MwkAccountInfoInput,
  MxnAccountInfoInput,
  NgnAccountInfoInput,
  PhpAccountInfoInput,
  RwfAccountInfoInput,
  TzsAccountInfoInput,
  UgxAccountInfoInput,
  UsAccountInfoInput,
  UsdAccountInfoInput,
  XofAccountInfoInput,
  ZarAccountInfoInput,
  ZmwAccountInfoInput
} from './bank-account-info'
import { Beneficiary } from './beneficiary'
import { openEnum } from './enums'
import {
  BaseWalletInfoInput,
  EthereumWalletInfoInput,
  SolanaWalletInfoInput,
  SparkWalletInfoInput
} from './wallet-info'

// One import path for everything about accountInfo: the types, the format table and the per-type request schemas.
export * from './account-types'
export * from './format-rules'
export * from './bank-account-info'
export * from './wallet-info'

/** accountInfo of requests (spec 2.6), discriminated by accountType; every format rule enforced. */
export const AccountInfoInput = z.discriminatedUnion(
  'accountType',
  [
    UsAccountInfoInput,
    UsdAccountInfoInput,
    GbpAccountInfoInput,
    MxnAccountInfoInput,
    BrlAccountInfoInput,
    EurAccountInfoInput,
    AedAccountInfoInput,
    NgnAccountInfoInput,
    CadAccountInfoInput,
    PhpAccountInfoInput,
    ZarAccountInfoInput,
    KesAccountInfoInput,
    TzsAccountInfoInput,
    ZmwAccountInfoInput,
    RwfAccountInfoInput,
    MwkAccountInfoInput,
    UgxAccountInfoInput,
    XofAccountInfoInput,
    SparkWalletInfoInput,
    SolanaWalletInfoInput,
    BaseWalletInfoInput,
    EthereumWalletInfoInput
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `accountType must be one of ${INPUT_ACCOUNT_TYPES.join(', ')}`
        : 'accountInfo must be an object with an accountType'
  }
)
export type AccountInfoInput = z.infer<typeof AccountInfoInput>

/** accountInfo of responses: any accountType string, every member optional, unknown members kept. */
export const AccountInfo = z.looseObject({
  accountType: openEnum(ACCOUNT_TYPES),
  accountNumber: z.string().optional(),
  routingNumber: z.string().optional(),
  accountCategory: z.string().optional(),
  /** Published name of checking/savings on USD accounts (the spec's accountCategory). */
  bankAccountType: z.string().optional(),
  bankName: z.string().optional(),
  clabeNumber: z.string().optional(),
  sortCode: z.string().optional(),
  iban: z.string().optional(),
  swiftCode: z.string().optional(),
  bankCode: z.string().optional(),
  branchCode: z.string().optional(),
  pixKey: z.string().optional(),
  pixKeyType: z.string().optional(),
  taxId: z.string().optional(),
  phoneNumber: z.string().optional(),
  provider: z.string().optional(),
  region: z.string().optional(),
  paymentRails: z.array(z.string()).optional(),
  /** Wallet address (SPARK_WALLET and other wallets). */
  address: z.string().optional(),
  beneficiary: Beneficiary.partial({ beneficiaryType: true }).optional()
})
export type AccountInfo = z.infer<typeof AccountInfo>

/** One definition with the labels that name accounts (src/shared/labels.ts). */
export { accountInfoIdentifier } from '../labels'
