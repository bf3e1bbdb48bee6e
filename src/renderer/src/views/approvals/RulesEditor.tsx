import { useState } from 'react'
import { ApprovalRules } from '../../../../shared/ipc/channels/approvals'
import {
  formatMoney,
  KNOWN_DECIMALS,
  minorUnitsToDecimalString,
  parseMoneyInput
} from '../../../../shared/format/money'
import { paydesk } from '../../bridge/paydesk'
import { ErrorNotice } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { useChannel } from '../../ui/query'
import { activeProfile, useProfiles } from '../../stores/profiles'

interface CeilingRow {
  currency: string
  amount: string
}

/**
 * Rules that approve incoming payments in main the moment they are seen, inside the service's short approval window.
 * Ceilings are typed as amounts and stored as integer minor units.
 */
export function RulesEditor() {
  const query = useChannel('approvals.rules.get', null)
  const [saved, setSaved] = useState<string | null>(null)
  if (query.error && !query.data) return <ErrorNotice error={query.error} onRetry={query.reload} />
  if (!query.data) return <div className="skeleton-rows" aria-busy="true" />
  // Keyed by the saved rules: the form starts again from what main holds whenever that changes.
  return (
    <RulesForm
      key={JSON.stringify(query.data)}
      rules={query.data}
      saved={saved}
      onSaved={(message) => {
        setSaved(message)
        query.reload()
      }}
    />
  )
}

function RulesForm(props: { rules: ApprovalRules; saved: string | null; onSaved(message: string | null): void }) {
  const { rules, saved, onSaved } = props
  const [enabled, setEnabled] = useState(rules.enabled)
  const [ceilings, setCeilings] = useState<CeilingRow[]>(() =>
    Object.entries(rules.maxAmountByCurrency).map(([currency, amount]) => ({
      currency,
      amount: minorUnitsToDecimalString(amount, KNOWN_DECIMALS[currency] ?? 0)
    }))
  )
  const [senders, setSenders] = useState(rules.allowedSenders.join('\n'))
  const [requireKyc, setRequireKyc] = useState(rules.requireKycApproved)
  const [errors, setErrors] = useState<string[]>([])
  const production = activeProfile(useProfiles((s) => s.list))?.environment === 'production'
  // Saving rules that are on in production needs its own explicit consent each time (main refuses without it).
  const turningOnInProduction = production && enabled
  const [understood, setUnderstood] = useState(false)

  const save = async () => {
    const problems: string[] = []
    const maxAmountByCurrency: Record<string, number> = {}
    for (const row of ceilings) {
      const code = row.currency.trim().toUpperCase()
      if (!code) continue
      const decimals = KNOWN_DECIMALS[code]
      if (decimals === undefined) {
        problems.push(
          `${code}: Paydesk does not know this currency’s decimal places, so it cannot set a ceiling safely.`
        )
        continue
      }
      const parsed = parseMoneyInput(row.amount, decimals)
      if (!parsed.ok) problems.push(`${code}: ${parsed.error}`)
      else maxAmountByCurrency[code] = parsed.amount
    }
    const candidate = {
      enabled,
      maxAmountByCurrency,
      allowedSenders: senders
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
      requireKycApproved: requireKyc
    }
    const parsed = ApprovalRules.safeParse(candidate)
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => i.message))
    if (turningOnInProduction && !understood)
      problems.push('Tick “I understand Paydesk will approve real payments automatically” to save rules that are on.')
    setErrors(problems)
    if (problems.length > 0 || !parsed.success) return
    const result = await paydesk.invoke('approvals.rules.set', {
      ...parsed.data,
      ...(turningOnInProduction && { confirmProduction: understood })
    })
    if (!result.ok) setErrors([result.error.message])
    else {
      onSaved(result.value.enabled ? 'Rules saved and on.' : 'Rules saved (off).')
    }
  }

  return (
    <form
      className="panel form"
      aria-label="Approval rules"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <p className="muted">
        The service rejects an incoming payment if nobody approves it within seconds. With rules on, Paydesk approves a
        payment at once when every condition holds, and records each decision. Anything else waits for you.
      </p>
      <label>
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Approve automatically
        when the rules hold
      </label>
      {turningOnInProduction && (
        <label className="review">
          <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} /> I understand
          Paydesk will approve real payments automatically
        </label>
      )}
      <fieldset>
        <legend>Amount ceiling per currency (a currency without a ceiling is never approved automatically)</legend>
        {ceilings.map((row, i) => (
          <div className="row" key={i}>
            <input
              aria-label={`Currency ${i + 1}`}
              value={row.currency}
              placeholder="USD"
              size={6}
              onChange={(e) => setCeilings((c) => c.map((r, j) => (j === i ? { ...r, currency: e.target.value } : r)))}
            />
            <input
              aria-label={`Ceiling ${i + 1}`}
              value={row.amount}
              placeholder="500.00"
              onChange={(e) => setCeilings((c) => c.map((r, j) => (j === i ? { ...r, amount: e.target.value } : r)))}
            />
            {row.currency &&
              KNOWN_DECIMALS[row.currency.toUpperCase()] !== undefined &&
              parseMoneyInput(row.amount, KNOWN_DECIMALS[row.currency.toUpperCase()]!).ok && (
                <span className="muted">
                  up to{' '}
                  {formatMoney(
                    (parseMoneyInput(row.amount, KNOWN_DECIMALS[row.currency.toUpperCase()]!) as { amount: number })
                      .amount,
                    { code: row.currency.toUpperCase(), decimals: KNOWN_DECIMALS[row.currency.toUpperCase()]! }
                  )}
                </span>
              )}
            <button
              type="button"
              aria-label={`Remove ceiling ${i + 1}`}
              onClick={() => setCeilings((c) => c.filter((_, j) => j !== i))}
            >
              ×
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setCeilings((c) => [...c, { currency: '', amount: '' }])}>
          Add a ceiling
        </button>
      </fieldset>
      <Field id="rules-senders" label="Allowed senders (one address or account id per line; empty: any sender)">
        <textarea id="rules-senders" rows={4} value={senders} onChange={(e) => setSenders(e.target.value)} />
      </Field>
      <label>
        <input type="checkbox" checked={requireKyc} onChange={(e) => setRequireKyc(e.target.checked)} /> Only when the
        customer’s KYC is APPROVED
      </label>
      {errors.length > 0 && (
        <ul className="result result-bad" role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      {saved && (
        <p className="result result-ok" role="status">
          {saved}
        </p>
      )}
      <button type="submit" className="primary">
        Save rules
      </button>
    </form>
  )
}
