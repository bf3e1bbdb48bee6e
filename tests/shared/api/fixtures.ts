import type { InputAccountType } from '../../../src/shared/api/account-info'
import { encodeBech32 } from '../../../src/shared/api/spark'

/** A genuinely valid Spark address (87 characters, bech32m checksum), built with our own encoder. */
export const SPARK = encodeBech32(
  'spark',
  Array.from({ length: 75 }, (_, i) => (i * 7) % 32),
  'bech32m'
)

/** A valid accountInfo of each request account type. */
export const VALID_INFO: Record<InputAccountType, Record<string, unknown>> = {
  US_ACCOUNT: {
    accountType: 'US_ACCOUNT',
    accountNumber: '123456789',
    routingNumber: '021000021',
    accountCategory: 'CHECKING'
  },
  USD_ACCOUNT: {
    accountType: 'USD_ACCOUNT',
    accountNumber: '1234',
    routingNumber: '021000021',
    accountCategory: 'SAVINGS'
  },
  GBP_ACCOUNT: { accountType: 'GBP_ACCOUNT', sortCode: '123456', accountNumber: '12345678' },
  MXN_ACCOUNT: { accountType: 'MXN_ACCOUNT', clabeNumber: '123456789012345678' },
  BRL_ACCOUNT: { accountType: 'BRL_ACCOUNT', pixKey: 'user@example.com', pixKeyType: 'EMAIL', taxId: '11111111111' },
  EUR_ACCOUNT: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' },
  AED_ACCOUNT: { accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456', swiftCode: 'EBILAEAD' },
  NGN_ACCOUNT: { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'Example Bank' },
  CAD_ACCOUNT: { accountType: 'CAD_ACCOUNT', bankCode: '001', branchCode: '00012', accountNumber: '1234567' },
  PHP_ACCOUNT: { accountType: 'PHP_ACCOUNT', accountNumber: '001234567890', bankName: 'BDO Unibank' },
  ZAR_ACCOUNT: { accountType: 'ZAR_ACCOUNT', accountNumber: '1234567890', bankName: 'Example Bank' },
  KES_ACCOUNT: { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'M-Pesa' },
  TZS_ACCOUNT: { accountType: 'TZS_ACCOUNT', phoneNumber: '+255712345678', provider: 'Vodacom' },
  ZMW_ACCOUNT: { accountType: 'ZMW_ACCOUNT', phoneNumber: '+260712345678', provider: 'MTN' },
  RWF_ACCOUNT: { accountType: 'RWF_ACCOUNT', phoneNumber: '+250712345678', provider: 'MTN' },
  MWK_ACCOUNT: { accountType: 'MWK_ACCOUNT', phoneNumber: '+265712345678', provider: 'Airtel' },
  UGX_ACCOUNT: { accountType: 'UGX_ACCOUNT', phoneNumber: '+256712345678', provider: 'MTN' },
  XOF_ACCOUNT: { accountType: 'XOF_ACCOUNT', phoneNumber: '+221771234567', provider: 'Orange', region: 'SN' },
  SPARK_WALLET: { accountType: 'SPARK_WALLET', address: SPARK },
  SOLANA_WALLET: { accountType: 'SOLANA_WALLET', address: '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg' },
  BASE_WALLET: { accountType: 'BASE_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
  ETHEREUM_WALLET: { accountType: 'ETHEREUM_WALLET', address: '0xde709f2102306220921060314715629080e2fb77' }
}
