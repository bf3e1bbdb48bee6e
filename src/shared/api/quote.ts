import { z } from 'zod'
import { closedEnum, openEnum } from './enums'
import { CustomerId, ExternalAccountId, InternalAccountId, QuoteRef, UmaAddress } from './ids'
import { Currency, currencyCode, PositiveMinorUnits } from './money'
import { nonBlank } from './text'
import { RateDetails } from './transaction'

/** Quote statuses of the reference (the spec does not show the Quote resource). */
const QUOTE_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const
const QUOTE_LOCK_SIDES = ['SENDING', 'RECEIVING'] as const

/** The published API's PurposeOfPayment (required by some destination countries, e.g. India). */
const PURPOSES_OF_PAYMENT = [
  'GIFT',
  'SELF',
  'GOODS_OR_SERVICES',
  'EDUCATION',
  'HEALTH_OR_MEDICAL',
  'REAL_ESTATE_PURCHASE',
  'TAX_PAYMENT',
  'LOAN_PAYMENT',
  'UTILITY_BILL',
  'DONATION',
  'TRAVEL',
  'OTHER'
] as const

/** Largest lockedCurrencyAmount the reference allows. */
export const MAX_QUOTE_AMOUNT = 9_000_000_000_000_000

/** Quote of responses: the minimal member set from the reference, everything else kept. */
export const Quote = z.looseObject({
  id: QuoteRef,
  status: openEnum(QUOTE_STATUSES),
  createdAt: z.string().optional(),
  expiresAt: z.string().optional(),
  source: z.looseObject({ sourceType: z.string().optional(), accountId: z.string().optional() }).optional(),
  destination: z
    .looseObject({
      destinationType: z.string().optional(),
      accountId: z.string().optional(),
      umaAddress: z.string().optional()
    })
    .optional(),
  sendingCurrency: Currency.optional(),
  receivingCurrency: Currency.optional(),
  totalSendingAmount: z.number().int().optional(),
  totalReceivingAmount: z.number().int().optional(),
  exchangeRate: z.number().optional(),
  feesIncluded: z.number().int().optional(),
  transactionId: z.string().optional(),
  rateDetails: RateDetails.optional()
})
export type Quote = z.infer<typeof Quote>

/**
 * POST /quotes body, reduced to what Paydesk uses: from an internal account to an external account or an UMA address,
 * with one side locked (reference QuoteRequest with AccountQuoteSource and AccountDestination or UmaAddressDestination),
 * plus the published members the official clients send: `lookupId` (a receiver lookup's id), `purposeOfPayment` and
 * `senderCustomerInfo` (what the destination asked to know about the sender, as key-value pairs).
 */
export const QuoteCreateRequest = z.strictObject({
  source: z.strictObject({
    sourceType: z.literal('ACCOUNT', { error: 'source.sourceType must be ACCOUNT' }),
    accountId: InternalAccountId,
    customerId: CustomerId.optional()
  }),
  destination: z.discriminatedUnion(
    'destinationType',
    [
      z.strictObject({
        destinationType: z.literal('ACCOUNT'),
        accountId: ExternalAccountId,
        paymentRail: z
          .string()
          .regex(/^[A-Z][A-Z0-9_]*$/, { error: 'Payment rail must be a rail name such as ACH' })
          .optional()
      }),
      z.strictObject({
        destinationType: z.literal('UMA_ADDRESS'),
        umaAddress: UmaAddress,
        /** The currency the receiver gets; the service picks one when absent. */
        currency: currencyCode('Currency').optional()
      })
    ],
    { error: 'destination.destinationType must be ACCOUNT or UMA_ADDRESS' }
  ),
  lockedCurrencySide: closedEnum(QUOTE_LOCK_SIDES, 'Which side is fixed'),
  lockedCurrencyAmount: PositiveMinorUnits.refine((n) => n <= MAX_QUOTE_AMOUNT, {
    error: `The amount must be at most ${MAX_QUOTE_AMOUNT} minor units`
  }),
  immediatelyExecute: z.boolean().optional(),
  description: nonBlank('Description').optional(),
  lookupId: nonBlank('Receiver lookup id').optional(),
  purposeOfPayment: closedEnum(PURPOSES_OF_PAYMENT, 'Purpose of payment').optional(),
  senderCustomerInfo: z
    .record(z.string(), z.unknown(), { error: 'Sender information must be an object of key-value pairs' })
    .optional()
})
export type QuoteCreateRequest = z.infer<typeof QuoteCreateRequest>
