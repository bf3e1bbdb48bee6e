import type { ExternalAccount } from '../../../../shared/api'
import { beneficiaryName, lastDigits, shortTypeName } from '../../../../shared/labels'

export { lastDigits, shortTypeName }

/** Human names of account types; unknown ones are shown verbatim. */
const TYPE_NAMES: Record<string, string> = {
  US_ACCOUNT: 'US bank account',
  // The published API's name for a US account (the spec's US_ACCOUNT): the same thing to an operator.
  USD_ACCOUNT: 'US bank account',
  GBP_ACCOUNT: 'UK bank account',
  EUR_ACCOUNT: 'EUR bank account (IBAN)',
  MXN_ACCOUNT: 'Mexican account (CLABE)',
  BRL_ACCOUNT: 'Brazilian account (PIX)',
  AED_ACCOUNT: 'UAE bank account (IBAN)',
  NGN_ACCOUNT: 'Nigerian bank account',
  CAD_ACCOUNT: 'Canadian bank account',
  PHP_ACCOUNT: 'Philippine bank account',
  ZAR_ACCOUNT: 'South African bank account',
  KES_ACCOUNT: 'Kenyan mobile money',
  TZS_ACCOUNT: 'Tanzanian mobile money',
  ZMW_ACCOUNT: 'Zambian mobile money',
  RWF_ACCOUNT: 'Rwandan mobile money',
  MWK_ACCOUNT: 'Malawian mobile money',
  UGX_ACCOUNT: 'Ugandan mobile money',
  XOF_ACCOUNT: 'West African mobile money (XOF)',
  SPARK_WALLET: 'Spark wallet',
  SOLANA_WALLET: 'Solana wallet',
  BASE_WALLET: 'Base wallet',
  ETHEREUM_WALLET: 'Ethereum wallet',
  LIGHTNING: 'Lightning'
}
export const accountTypeName = (type: string) => TYPE_NAMES[type] ?? type

/** Who the money goes to: the beneficiary's name, the business's legal name, or the verified name. */
export const holderName = (account: ExternalAccount): string | undefined => beneficiaryName(account)

/** One line that names an account for a person: "Jane Smith · US bank account …9012". */
export function describeAccount(account: ExternalAccount): string {
  const parts = [
    holderName(account),
    `${accountTypeName(account.accountInfo.accountType)} ${lastDigits(account)}`.trim()
  ]
  return parts.filter(Boolean).join(' · ')
}
