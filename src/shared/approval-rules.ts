import { z } from 'zod'
import { ApprovePaymentRequest, type Customer, type IncomingTransaction } from './api'
import { formatAmountInSentence } from './format/money'

/** receiverCustomerInfo as the approve call takes it (FULL_NAME, BIRTH_DATE, NATIONALITY, COUNTRY_OF_RESIDENCE, ADDRESS...). */
export const ReceiverCustomerInfo = ApprovePaymentRequest.shape.receiverCustomerInfo.unwrap()
export type ReceiverCustomerInfo = z.infer<typeof ReceiverCustomerInfo>

const Currency = z.string().regex(/^[A-Z0-9]{3,5}$/, 'Currency must be a code such as USD')

/**
 * The conditions of an approval rule, shared by the approval gate and the desktop. A payment passes when every
 * condition holds: its currency has a ceiling and the amount is at most that ceiling (a currency without a ceiling
 * never passes), the sender is on the allow-list (when the list is not empty), and the customer's KYC is APPROVED
 * (when required). `enabled` is the desktop's old switch, ignored by the gate's rules (src/shared/gate/rules.ts).
 */
export const ApprovalRules = z.strictObject({
  enabled: z.boolean(),
  /** Minor units per currency code. */
  maxAmountByCurrency: z.record(Currency, z.number().int().min(0).refine(Number.isSafeInteger)).default({}),
  /** Sender UMA addresses or source account ids; empty: any sender. */
  allowedSenders: z.array(z.string().trim().min(1).max(300)).max(1000).default([]),
  requireKycApproved: z.boolean().default(true)
})
export type ApprovalRules = z.infer<typeof ApprovalRules>

type Incoming = IncomingTransaction

/**
 * The rules, applied to one payment: every condition must hold; a currency without a ceiling never passes. Returns one
 * sentence per condition checked, for the decision record.
 */
export function evaluateRules(
  t: Incoming,
  rules: ApprovalRules,
  customer: Pick<Customer, 'kycStatus'> | null
): { ok: boolean; reasons: string[]; amount: number; currency: string; sender: string | null } {
  const amount = t.receivedAmount.amount
  const currency = t.receivedAmount.currency.code
  const decimals = t.receivedAmount.currency.decimals ?? 2
  const money = (n: number) => formatAmountInSentence(n, currency, decimals)
  const senders = senderIdentifiers(t)
  // Any of the payment's sender identifiers on the list lets it through; the record names the one that matched.
  const sender = senders.find((x) => rules.allowedSenders.includes(x)) ?? senders[0] ?? null
  const reasons: string[] = []
  let ok = true
  const ceiling = Object.hasOwn(rules.maxAmountByCurrency, currency) ? rules.maxAmountByCurrency[currency] : undefined
  if (ceiling === undefined) {
    ok = false
    reasons.push(`No ceiling is set for ${currency}, so ${currency} payments wait for a person.`)
  } else if (amount > ceiling) {
    ok = false
    reasons.push(`Amount ${money(amount)} is above the ceiling of ${money(ceiling)}.`)
  } else {
    reasons.push(`Amount ${money(amount)} is within the ceiling of ${money(ceiling)}.`)
  }
  if (rules.allowedSenders.length) {
    if (sender && rules.allowedSenders.includes(sender)) reasons.push(`Sender ${sender} is on the allow-list.`)
    else {
      ok = false
      reasons.push(`Sender ${sender ?? '(unknown)'} is not on the allow-list.`)
    }
  } else {
    reasons.push('Any sender is allowed (the allow-list is empty).')
  }
  if (rules.requireKycApproved) {
    const kyc = customer?.kycStatus
    if (kyc === 'APPROVED') reasons.push('The customer’s KYC is APPROVED.')
    else {
      ok = false
      reasons.push(`The customer’s KYC is ${kyc ?? 'unknown'}, not APPROVED.`)
    }
  }
  return { ok, reasons, amount, currency, sender }
}

/** receiverCustomerInfo from the customer record: FULL_NAME, BIRTH_DATE, NATIONALITY, COUNTRY_OF_RESIDENCE, ADDRESS. */
export function prefillFrom(customer: Customer | null | undefined): ReceiverCustomerInfo {
  const out: ReceiverCustomerInfo = {}
  if (!customer) return out
  const nonBlank = (s: unknown): s is string => typeof s === 'string' && s.trim().length > 0
  if (nonBlank(customer.fullName)) out['FULL_NAME'] = customer.fullName
  if (nonBlank(customer.birthDate)) out['BIRTH_DATE'] = customer.birthDate
  if (nonBlank(customer.nationality)) out['NATIONALITY'] = customer.nationality
  const residence = customer.address?.country ?? customer.region
  if (nonBlank(residence)) out['COUNTRY_OF_RESIDENCE'] = residence
  const a = customer.address
  if (a && nonBlank(a.line1) && nonBlank(a.postalCode) && nonBlank(a.country)) {
    out['ADDRESS'] = {
      line1: a.line1,
      ...(nonBlank(a.line2) && { line2: a.line2 }),
      ...(nonBlank(a.city) && { city: a.city }),
      ...(nonBlank(a.state) && { state: a.state }),
      postalCode: a.postalCode,
      country: a.country
    }
  }
  return out
}

/**
 * Who sent an incoming payment, every way the service may say it, most specific first: `source.umaAddress`, a top-level
 * `senderUmaAddress`, an address in `counterpartyInformation` (upper-case keys such as UMA_ADDRESS), then
 * `source.accountId`. Blank and non-string values are ignored; duplicates appear once.
 */
export function senderIdentifiers(t: Incoming): string[] {
  const r = t as Record<string, unknown>
  const info = t.counterpartyInformation ?? {}
  const candidates = [
    t.source?.umaAddress,
    r['senderUmaAddress'],
    info['UMA_ADDRESS'],
    info['SENDER_UMA_ADDRESS'],
    info['senderUmaAddress'],
    info['umaAddress'],
    t.source?.accountId
  ]
  const out: string[] = []
  for (const c of candidates) {
    if (typeof c !== 'string') continue
    const v = c.trim()
    if (v && !out.includes(v)) out.push(v)
  }
  return out
}
