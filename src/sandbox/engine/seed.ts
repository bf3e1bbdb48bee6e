/**
 * Demo data for a first start (issue item 7): customers in every KYC status, external accounts of several types in
 * every status, in the shapes the published API returns (USD_ACCOUNT with bankAccountType, a business beneficiary's
 * legalName at the top), funded platform accounts, and transactions in every status of spec 3.2. The history is
 * built by the real engine operations on a clock set 30 days back, so balances, the ledger journal and timestamps
 * are consistent; payments still in flight at "now" keep moving once the sandbox runs.
 */
import { randomUUID } from 'node:crypto'
import { CustomerCreateRequest } from '../../shared/api/customer'
import { ExternalAccountCreateRequest, ExternalAccountUpdateRequest } from '../../shared/api/external-account'
import { QuoteCreateRequest } from '../../shared/api/quote'
import { encodeBech32 } from '../../shared/api/spark'
import { iso } from '../state/clock'
import { amountOf } from '../state/currencies'
import type { Engine } from './engine'
import { applyAnswer } from './approval'
import { settlement } from './incoming'
import type { TransactionRec } from '../state/model'
import type { PlatformInfo } from '../state/sandbox-store'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export function initPlatform(_now: number): PlatformInfo {
  return { id: `Platform:${randomUUID()}`, platformCustomerId: 'platform', umaDomain: 'uma.paydesk.sandbox' }
}

/** A valid Spark address (bech32m, 87 characters) derived from `n`. */
export function sandboxSparkAddress(n: number): string {
  const words: number[] = []
  let x = (n * 2654435761) >>> 0 || 1
  for (let i = 0; i < 75; i++) {
    x = (x ^ (x << 13)) >>> 0
    x = (x ^ (x >>> 17)) >>> 0
    x = (x ^ (x << 5)) >>> 0
    words.push(x & 31)
  }
  return encodeBech32('spark', words, 'bech32m')
}

const address = (line1: string, city: string, postalCode: string, country: string, state?: string) => ({
  line1,
  city,
  postalCode,
  country,
  ...(state ? { state } : {})
})

export function seedSandbox(engine: Engine): void {
  const end = engine.clock.now()
  let t = end - 30 * DAY
  const advance = (ms: number): void => {
    t = Math.min(end, t + ms)
    engine.scheduler.runDue()
  }
  const at = (msBeforeEnd: number): void => {
    t = Math.max(t, end - msBeforeEnd)
    engine.scheduler.runDue()
  }

  engine.clock.withSource(
    () => t,
    () => {
      engine.openPlatformAccounts()
      const platform = new Map(engine.listPlatformInternalAccounts().map((a) => [a.balance.currency.code, a.id]))
      const pid = (cur: string): string => platform.get(cur) as string
      engine.fund(pid('USD'), 1_000_000_000)
      engine.fund(pid('EUR'), 25_000_000)
      engine.fund(pid('GBP'), 10_000_000)
      engine.fund(pid('MXN'), 500_000_000)
      engine.fund(pid('BTC'), 500_000_000)
      engine.fund(pid('USDC'), 100_000_000_000)

      const treasury = engine.createExternalAccount(
        ExternalAccountCreateRequest.parse({
          currency: 'USD',
          platformAccountId: 'treasury-operating',
          accountInfo: {
            accountType: 'USD_ACCOUNT',
            accountNumber: '40012345678',
            routingNumber: '021000021',
            bankAccountType: 'CHECKING',
            bankName: 'Chase Bank',
            paymentRails: ['ACH', 'WIRE'],
            beneficiary: {
              beneficiaryType: 'BUSINESS',
              legalName: 'Paydesk Demo Platform Inc.',
              taxId: '47-1234567',
              address: address('1 Market Street', 'San Francisco', '94105', 'US', 'CA')
            }
          }
        })
      )
      void treasury
      const oldEur = engine.createExternalAccount(
        ExternalAccountCreateRequest.parse({
          currency: 'EUR',
          platformAccountId: 'eu-settlement-old',
          accountInfo: {
            accountType: 'EUR_ACCOUNT',
            iban: 'DE89370400440532013000',
            beneficiary: {
              beneficiaryType: 'BUSINESS',
              legalName: 'Paydesk Demo Platform GmbH',
              address: address('Unter den Linden 1', 'Berlin', '10117', 'DE')
            }
          }
        })
      )
      advance(HOUR)

      const customer = (body: Record<string, unknown>) =>
        engine.createCustomer(CustomerCreateRequest.parse({ customerType: 'INDIVIDUAL', ...body }))
      const jane = customer({
        platformCustomerId: 'cust-jane-smith',
        region: 'US',
        currencies: ['USD', 'BTC'],
        fullName: 'Jane Smith',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: address('123 Main Street', 'San Francisco', '94105', 'US', 'CA')
      })
      const carlos = customer({
        platformCustomerId: 'cust-carlos-garcia',
        region: 'MX',
        fullName: 'Carlos García',
        birthDate: '1988-05-22',
        nationality: 'MX'
      })
      const amelia = customer({
        platformCustomerId: 'cust-amelia-hughes',
        region: 'GB',
        fullName: 'Amelia Hughes',
        birthDate: '1979-11-02',
        nationality: 'GB',
        address: address('10 Downing Lane', 'London', 'SW1A 2AA', 'GB')
      })
      const olu = customer({
        platformCustomerId: 'cust-olu-adeyemi',
        region: 'NG',
        fullName: 'Olu Adeyemi 001',
        nationality: 'NG'
      })
      customer({
        platformCustomerId: 'cust-marta-kowalski',
        region: 'DE',
        fullName: 'Marta Kowalski 002',
        nationality: 'PL'
      })
      customer({ platformCustomerId: 'cust-ivan-petrov', region: 'US', fullName: 'Ivan Petrov 003', nationality: 'US' })
      advance(HOUR)

      const external = (body: Record<string, unknown>) =>
        engine.createExternalAccount(ExternalAccountCreateRequest.parse(body))
      const janeBeneficiary = {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Jane Smith',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: address('123 Main Street', 'San Francisco', '94105', 'US', 'CA')
      }
      const janeChecking = external({
        customerId: jane.id,
        currency: 'USD',
        platformAccountId: 'jane-checking',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: '123456789012',
          routingNumber: '021000021',
          bankAccountType: 'CHECKING',
          bankName: 'Chase Bank',
          paymentRails: ['ACH'],
          beneficiary: janeBeneficiary
        }
      })
      const janeSavings = external({
        customerId: jane.id,
        currency: 'USD',
        platformAccountId: 'jane-savings-rejects',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: '9876543004',
          routingNumber: '026009593',
          bankAccountType: 'SAVINGS',
          bankName: 'Bank of America',
          beneficiary: janeBeneficiary
        }
      })
      external({
        customerId: jane.id,
        currency: 'BTC',
        cryptoNetwork: 'SPARK_MAINNET',
        platformAccountId: 'jane-spark',
        accountInfo: { accountType: 'SPARK_WALLET', address: sandboxSparkAddress(1) }
      })
      const carlosBeneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Carlos García', nationality: 'MX' }
      const carlosClabe = external({
        customerId: carlos.id,
        currency: 'MXN',
        defaultUmaDepositAccount: true,
        platformAccountId: 'carlos-bbva',
        accountInfo: {
          accountType: 'MXN_ACCOUNT',
          clabeNumber: '012180015000000011',
          bankName: 'BBVA Mexico',
          beneficiary: carlosBeneficiary
        }
      })
      const carlosSlow = external({
        customerId: carlos.id,
        currency: 'MXN',
        platformAccountId: 'carlos-banorte-slow',
        accountInfo: {
          accountType: 'MXN_ACCOUNT',
          clabeNumber: '072180015000000003',
          bankName: 'Banorte',
          beneficiary: carlosBeneficiary
        }
      })
      const ameliaBeneficiary = {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Amelia Hughes',
        address: address('10 Downing Lane', 'London', 'SW1A 2AA', 'GB')
      }
      const ameliaGbp = external({
        customerId: amelia.id,
        currency: 'GBP',
        platformAccountId: 'amelia-barclays',
        accountInfo: {
          accountType: 'GBP_ACCOUNT',
          sortCode: '200000',
          accountNumber: '55779103',
          bankName: 'Barclays',
          beneficiary: ameliaBeneficiary
        }
      })
      advance(DAY)
      // Manually disabled by the platform (the only way to INACTIVE; the API has no operation for it).
      const disabled = engine.store.externalAccounts.get(oldEur.id)
      if (disabled) {
        disabled.data.status = 'INACTIVE'
        disabled.data.updatedAt = iso(t)
      }

      // ---- history: incoming payments, each decided by the answer its approval webhook got (no platform listens at
      // first start, so the seed answers for it): 200 approves, 403 rejects, 202 with nothing after times out.
      const receive = (sender: string, c: { id: string }, cur: string, amount: number) =>
        engine.sandboxReceive({
          senderUmaAddress: sender,
          customerId: c.id as `Customer:${string}`,
          receivingCurrencyCode: cur,
          receivingCurrencyAmount: amount
        })
      const answer = (tx: { id: string }, status: number, body: unknown = {}): void =>
        applyAnswer(engine, settlement(engine), tx.id, { kind: 'answered', status, body: JSON.stringify(body) })
      for (const [days, amount] of [
        [27, 250_000],
        [21, 180_000],
        [14, 320_000],
        [7, 95_000]
      ] as const) {
        at(days * DAY)
        const tx = receive('$success.usd@sandbox.uma.money', jane, 'USD', amount)
        answer(tx, 200, { receiverCustomerInfo: { FULL_NAME: 'Jane Smith' } })
        advance(HOUR)
      }
      at(20 * DAY)
      const eurIn = receive('$success.eur@sandbox.uma.money', amelia, 'GBP', 75_000)
      answer(eurIn, 200)
      advance(HOUR)
      const mxnIn = receive('$success.mxn@sandbox.uma.money', carlos, 'MXN', 1_500_000)
      answer(mxnIn, 200)
      advance(HOUR)
      at(18 * DAY)
      const rejected = receive('$success.usd@sandbox.uma.money', jane, 'USD', 990_000)
      answer(rejected, 403, { reason: 'SENDER_NOT_RECOGNISED' })
      at(16 * DAY)
      answer(receive('$success.usd@sandbox.uma.money', jane, 'USD', 40_000), 202)
      advance(DAY) // deferred, then no approve/reject within 5 s: PAYMENT_APPROVAL_TIMED_OUT
      at(12 * DAY)
      receive('$fail.compliance.usd@sandbox.uma.money', jane, 'USD', 60_000)
      advance(HOUR)
      at(11 * DAY)
      insertIncoming(engine, t, jane, 'CREATED', 15_000)
      advance(HOUR)
      insertIncoming(engine, t, jane, 'REFUNDED', 33_000, 'OFFRAMP_FAILED')
      advance(HOUR)
      insertIncoming(engine, t, jane, 'EXPIRED', 12_500, 'QUOTE_EXPIRED')
      advance(HOUR)

      // ---- history: outgoing payments
      const janeUsd = engine.store.customers.get(jane.id)?.meta.internalAccounts.USD as `InternalAccount:${string}`
      const payFromJane = (to: { id: string }, amount: number) =>
        engine.transferOut({
          source: { accountId: janeUsd },
          destination: { accountId: to.id as `ExternalAccount:${string}` },
          amount
        })
      at(10 * DAY)
      payFromJane(janeChecking, 120_000)
      advance(HOUR)
      at(9 * DAY)
      payFromJane(janeSavings, 50_000)
      advance(HOUR)
      engine.transferOut({
        source: { accountId: pid('GBP') as `InternalAccount:${string}` },
        destination: { accountId: ameliaGbp.id as `ExternalAccount:${string}` },
        amount: 25_000
      })
      advance(HOUR)
      const quote = (dest: string, amount: number) =>
        engine.createQuote(
          QuoteCreateRequest.parse({
            source: { sourceType: 'ACCOUNT', accountId: pid('USD') },
            destination: { destinationType: 'ACCOUNT', accountId: dest },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: amount,
            description: 'Contractor payout'
          })
        )
      at(8 * DAY)
      quote(carlosClabe.id, 100_000) // never executed: EXPIRED
      advance(HOUR)
      at(6 * DAY)
      const paid = quote(carlosClabe.id, 250_000)
      engine.sandboxSend({ quoteId: paid.id as `Quote:${string}`, currencyCode: 'USD' })
      advance(HOUR)

      // ---- now: things in flight, all created at "now" so each lasts its full (scaled) delay after start
      at(0)
      engine.updateExternalAccount(ameliaGbp.id, {
        beneficiary: { ...ameliaBeneficiary, birthDate: '1979-11-02', nationality: 'GB' } as never
      } satisfies Partial<ExternalAccountUpdateRequest> as ExternalAccountUpdateRequest)
      external({
        customerId: olu.id,
        currency: 'NGN',
        platformAccountId: 'olu-access',
        accountInfo: {
          accountType: 'NGN_ACCOUNT',
          accountNumber: '0123456104',
          bankName: 'Access Bank',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Olu Adeyemi' }
        }
      })
      const slow = quote(carlosSlow.id, 400_000)
      engine.sandboxSend({ quoteId: slow.id as `Quote:${string}`, currencyCode: 'USD' })
      const long = receive('$pending.long.usd@sandbox.uma.money', jane, 'USD', 77_700)
      answer(long, 200)
      quote(carlosClabe.id, 150_000) // PENDING until it expires
      // PENDING as the service means it ("quote created"), not waiting for the platform: approve/reject refuse it.
      insertIncoming(engine, t, jane, 'PENDING', 42_000)
    }
  )
}

/**
 * Incoming payments in statuses no sandbox operation keeps (CREATED, PENDING, REFUNDED, EXPIRED); no money moves, and
 * nothing moves them on.
 */
function insertIncoming(
  engine: Engine,
  t: number,
  c: { id: string; platformCustomerId: string },
  status: string,
  amount: number,
  failureReason?: string
): void {
  const id = engine.store.ids.next('Transaction', t)
  const cust = engine.store.customers.get(c.id)
  const accountId = cust?.meta.internalAccounts.USD ?? ''
  const reference = `SBX-SEED-${id.slice(-6).toUpperCase()}-REF`
  const rec: TransactionRec = {
    t,
    id,
    data: {
      id,
      status,
      type: 'INCOMING',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId, currency: 'USD' },
      customerId: c.id,
      platformCustomerId: c.platformCustomerId,
      createdAt: iso(t),
      updatedAt: iso(t),
      receivedAmount: amountOf(amount, 'USD'),
      ...(status === 'CREATED' ? {} : { reconciliationInstructions: { reference } }),
      ...(failureReason ? { failureReason } : {})
    },
    meta: {
      kind: 'SEED',
      sender: '$success.usd@sandbox.uma.money',
      receiver: accountId,
      ...(status === 'CREATED' ? {} : { reference })
    }
  }
  engine.store.addTransaction(rec)
}
