import type { GateRules } from '../../../../shared/gate'
import { KNOWN_DECIMALS, minorUnitsToDecimalString, parseMoneyInput } from '../../../../shared/format/money'

/**
 * The rule editor's boxes, flat (the renderer's forms are all flat boxes checked by the shared schema): each rule and
 * each ceiling row has an id of its own that it keeps while rows move or go, so the boxes of the others stay put.
 * Box keys: `r<id>.name`, `r<id>.action`, `r<id>.reason`, `r<id>.fallback`, `r<id>.senders` (one per line),
 * `r<id>.kyc` ("yes" or ""), `r<id>.c<row>.currency`, `r<id>.c<row>.amount` (major units), `otherwise`,
 * `otherwiseFallback`.
 */
export interface RuleLayout {
  id: number
  ceilings: number[]
}

export const YES = 'yes'

export function rulesToBoxes(rules: GateRules): { boxes: Record<string, string>; layout: RuleLayout[] } {
  const boxes: Record<string, string> = { otherwise: rules.otherwise, otherwiseFallback: rules.otherwiseFallback }
  const layout = rules.rules.map((rule, id) => {
    const ceilings = Object.entries(rule.maxAmountByCurrency)
    boxes[`r${id}.name`] = rule.name
    boxes[`r${id}.action`] = rule.action
    boxes[`r${id}.reason`] = rule.reason ?? ''
    boxes[`r${id}.fallback`] = rule.fallback
    boxes[`r${id}.senders`] = rule.allowedSenders.join('\n')
    boxes[`r${id}.kyc`] = rule.requireKycApproved ? YES : ''
    ceilings.forEach(([code, amount], row) => {
      boxes[`r${id}.c${row}.currency`] = code
      const decimals = KNOWN_DECIMALS[code]
      // A currency Paydesk does not know the decimals of keeps its exact minor units (said beside the box).
      boxes[`r${id}.c${row}.amount`] =
        decimals === undefined ? String(amount) : minorUnitsToDecimalString(amount, decimals)
    })
    return { id, ceilings: ceilings.map((_, row) => row) }
  })
  return { boxes, layout }
}

/** A ceiling row as typed: its code, and its amount in minor units or why there is none. */
export function readCeiling(
  currencyText: string,
  amountText: string
): { code: string; amount?: number; problem?: string } {
  const code = currencyText.trim().toUpperCase()
  if (!code && !amountText.trim()) return { code }
  if (!/^[A-Z0-9]{3,5}$/.test(code)) return { code, problem: 'Give a currency code such as USD' }
  const decimals = KNOWN_DECIMALS[code]
  if (decimals === undefined) return { code, problem: `Paydesk does not know how many decimals ${code} has` }
  const parsed = parseMoneyInput(amountText, decimals)
  return parsed.ok ? { code, amount: parsed.amount } : { code, problem: parsed.error }
}

/** The boxes as the GateRules request: ceilings in minor units, senders one per line, empty reason left out. */
export function boxesToRules(v: Record<string, string>, layout: readonly RuleLayout[]): unknown {
  return {
    otherwise: v['otherwise'],
    otherwiseFallback: v['otherwiseFallback'],
    rules: layout.map(({ id, ceilings }) => {
      const reason = (v[`r${id}.reason`] ?? '').trim()
      const action = v[`r${id}.action`]
      return {
        name: v[`r${id}.name`] ?? '',
        action,
        ...(action === 'reject' && reason && { reason }),
        fallback: v[`r${id}.fallback`] || 'reject',
        allowedSenders: (v[`r${id}.senders`] ?? '')
          .split('\n')
          .map((s) => s.trim())
          .filter(Boolean),
        requireKycApproved: v[`r${id}.kyc`] === YES,
        maxAmountByCurrency: Object.fromEntries(
          ceilings
            .map((row) => readCeiling(v[`r${id}.c${row}.currency`] ?? '', v[`r${id}.c${row}.amount`] ?? ''))
            .filter((c) => c.code && c.amount !== undefined)
            .map((c) => [c.code, c.amount])
        )
      }
    })
  }
}

/**
 * Messages the schema cannot give, or gives in a program's words, at their boxes: a ceiling that does not read as an
 * amount, a currency twice, a name or reason too long.
 */
export function ruleChecks(
  v: Record<string, string>,
  layout: readonly RuleLayout[]
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const { id, ceilings } of layout) {
    if ((v[`r${id}.name`] ?? '').trim().length > 100) out[`r${id}.name`] = 'Keep the rule’s name to 100 characters'
    if ((v[`r${id}.reason`] ?? '').trim().length > 200) out[`r${id}.reason`] = 'Keep the reason to 200 characters'
    const seen = new Set<string>()
    for (const row of ceilings) {
      const ceiling = readCeiling(v[`r${id}.c${row}.currency`] ?? '', v[`r${id}.c${row}.amount`] ?? '')
      if (!ceiling.code) continue
      if (seen.has(ceiling.code)) out[`r${id}.c${row}.currency`] = `${ceiling.code} has a ceiling already in this rule`
      seen.add(ceiling.code)
      if (ceiling.problem) out[`r${id}.c${row}.amount`] = ceiling.problem
    }
  }
  return out
}

/** A schema issue's path ("rules.2.name") → the box it belongs to ("r<id of the third rule>.name"). */
export function boxOfPath(path: string, layout: readonly RuleLayout[]): string {
  const match = /^rules\.(\d+)\.(\w+)/.exec(path)
  if (!match) return path
  const rule = layout[Number(match[1])]
  if (!rule) return path
  const member = match[2] === 'allowedSenders' ? 'senders' : match[2] === 'requireKycApproved' ? 'kyc' : match[2]
  return `r${rule.id}.${member}`
}
