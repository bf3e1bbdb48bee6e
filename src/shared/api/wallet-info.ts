import { z } from 'zod'
import { sparkAddressProblem } from './spark'
import { patterned, requiredString } from './text'

/** accountInfo of requests for crypto wallets: an address in the wallet's own format, nothing else. */

export const SparkWalletInfoInput = z.strictObject({
  accountType: z.literal('SPARK_WALLET'),
  address: requiredString('Spark wallet address', 'Enter the Spark wallet address').superRefine((s, ctx) => {
    const problem = sparkAddressProblem(s)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })
})
export const SolanaWalletInfoInput = z.strictObject({
  accountType: z.literal('SOLANA_WALLET'),
  address: patterned(
    'Solana wallet address',
    /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
    'Solana wallet address must be 32 to 44 base58 characters',
    'Enter the Solana wallet address'
  )
})
const evmAddress = (what: string) =>
  patterned(
    what,
    /^0x[0-9a-fA-F]{40}$/,
    `${what} must be 0x followed by 40 hexadecimal characters`,
    `Enter the ${what}`
  )
export const BaseWalletInfoInput = z.strictObject({
  accountType: z.literal('BASE_WALLET'),
  address: evmAddress('Base wallet address')
})
export const EthereumWalletInfoInput = z.strictObject({
  accountType: z.literal('ETHEREUM_WALLET'),
  address: evmAddress('Ethereum wallet address')
})
