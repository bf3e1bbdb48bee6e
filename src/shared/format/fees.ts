import { formatAmountInSentence } from './money'

/**
 * The rate and fee members of a transaction or quote (`rateDetails`) in the operator's words, not the service's field
 * names (`gridApiFixedFee 10` reads "Service fixed fee · 0.10 USD"). The spec writes the service's own members as
 * `serviceApi*` and the real service sends `gridApi*`: both read alike. Fees are minor units of the sending currency;
 * with no currency known they are said as minor units, never guessed. Members this Paydesk does not know keep their
 * name and value, verbatim.
 */
type Kind = 'multiplier' | 'money' | 'rate'

/** The service's own members, by the names the real service sends. */
const SERVICE: Record<string, { label: string; kind: Kind }> = {
  gridApiMultiplier: { label: 'Service rate multiplier', kind: 'multiplier' },
  gridApiFixedFee: { label: 'Service fixed fee', kind: 'money' },
  gridApiVariableFeeRate: { label: 'Service variable fee rate', kind: 'rate' },
  gridApiVariableFeeAmount: { label: 'Service variable fee', kind: 'money' }
}

const MEMBERS: Record<string, { label: string; kind: Kind }> = {
  counterpartyMultiplier: { label: 'Receiving side’s rate multiplier', kind: 'multiplier' },
  counterpartyFixedFee: { label: 'Receiving side’s fixed fee', kind: 'money' },
  ...SERVICE,
  // The spec's names for the same members.
  ...Object.fromEntries(Object.entries(SERVICE).map(([k, v]) => [k.replace('gridApi', 'serviceApi'), v]))
}

interface FeeLine {
  /** The member's name at the service, for a title or a copy. */
  key: string
  label: string
  value: string
}

export function rateDetailLines(
  rateDetails: Record<string, unknown>,
  currency: { code: string; decimals?: number | undefined } | undefined
): FeeLine[] {
  return Object.entries(rateDetails).map(([key, raw]) => {
    const member = MEMBERS[key]
    if (!member || typeof raw !== 'number') return { key, label: key, value: String(raw) }
    return { key, label: member.label, value: valueOf(member.kind, raw, currency) }
  })
}

function valueOf(kind: Kind, n: number, currency: { code: string; decimals?: number | undefined } | undefined) {
  if (kind === 'multiplier') return `× ${n}`
  if (kind === 'rate') return `${+(n * 100).toPrecision(12)}%`
  if (!Number.isSafeInteger(n)) return String(n)
  return currency ? formatAmountInSentence(n, currency.code, currency.decimals ?? 2) : `${n} minor units`
}
