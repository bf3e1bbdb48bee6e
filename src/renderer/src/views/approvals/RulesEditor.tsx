import { useState } from 'react'
import { ApprovalRules } from '../../../../shared/ipc/channels/approvals'
import {
  formatMoney,
  KNOWN_DECIMALS,
  minorUnitsToDecimalString,
  parseMoneyInput
} from '../../../../shared/format/money'
import { ErrorNotice } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { useFlatForm } from '../../ui/flat-form'
import { FormFrame } from '../../ui/form-submit'
import { activeProfile, useProfiles } from '../../stores/profiles'

const YES = 'yes'
const ceilingKeys = (row: number) => [`ceiling.${row}.currency`, `ceiling.${row}.amount`] as const

/** A ceiling row: its code, and the minor units its amount means or why it means none. */
function readCeiling(currencyText: string, amountText: string): { code: string; amount?: number; problem?: string } {
  const code = currencyText.trim().toUpperCase()
  const decimals = KNOWN_DECIMALS[code]
  if (decimals === undefined) {
    return {
      code,
      problem: `${code}: Paydesk does not know this currency’s decimal places, so it cannot set a ceiling safely.`
    }
  }
  const parsed = parseMoneyInput(amountText, decimals)
  return parsed.ok ? { code, amount: parsed.amount } : { code, problem: `${code}: ${parsed.error}` }
}

/**
 * Rules that approve incoming payments in main the moment they are seen, inside the service's short approval window.
 * Ceilings are typed as amounts and stored as integer minor units.
 */
export function RulesEditor() {
  const query = useChannelQuery('approvals.rules.get', null)
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
  const production = activeProfile(useProfiles((s) => s.list))?.environment === 'production'
  const saving = useChannelMutation('approvals.rules.set')
  // Ceiling rows are numbered once and keep their number, so removing one leaves the others' boxes as they are.
  const initialCeilings = Object.entries(rules.maxAmountByCurrency)
  const [rows, setRows] = useState(() => initialCeilings.map((_, i) => i))
  const form = useFlatForm(
    ApprovalRules,
    {
      enabled: rules.enabled ? YES : '',
      senders: rules.allowedSenders.join('\n'),
      requireKyc: rules.requireKycApproved ? YES : '',
      understood: '',
      ...Object.fromEntries(
        initialCeilings.flatMap(([currency, amount], i) => {
          const [currencyKey, amountKey] = ceilingKeys(i)
          return [
            [currencyKey, currency],
            [amountKey, minorUnitsToDecimalString(amount, KNOWN_DECIMALS[currency] ?? 0)]
          ]
        })
      )
    },
    {
      toInput: (v) => ({
        enabled: v['enabled'] === YES,
        maxAmountByCurrency: Object.fromEntries(
          rows
            .map((row) => readCeiling(v[ceilingKeys(row)[0]] ?? '', v[ceilingKeys(row)[1]] ?? ''))
            .filter((c) => c.code && c.amount !== undefined)
            .map((c) => [c.code, c.amount])
        ),
        allowedSenders: (v['senders'] ?? '')
          .split('\n')
          .map((s) => s.trim())
          .filter(Boolean),
        requireKycApproved: v['requireKyc'] === YES
      }),
      checks: (v) => ({
        ...Object.fromEntries(
          rows.map((row) => {
            const [currencyKey, amountKey] = ceilingKeys(row)
            const ceiling = readCeiling(v[currencyKey] ?? '', v[amountKey] ?? '')
            return [amountKey, ceiling.code ? ceiling.problem : undefined]
          })
        ),
        // Saving rules that are on in production needs its own explicit consent each time (main refuses without it).
        understood:
          production && v['enabled'] === YES && v['understood'] !== YES
            ? 'Tick “I understand Paydesk will approve real payments automatically” to save rules that are on.'
            : undefined
      })
    }
  )
  const v = form.values
  const turningOnInProduction = production && v['enabled'] === YES
  const checkbox = (key: string) => ({
    checked: v[key] === YES,
    onChange: (e: { target: { checked: boolean } }) => form.set(key, e.target.checked ? YES : '')
  })
  const errors = [...form.otherErrors([]), ...(saving.error ? [saving.error.message] : [])]

  const save = async () => {
    const parsed = form.submit()
    if (!parsed) return
    const result = await saving.run({ ...parsed, ...(turningOnInProduction && { confirmProduction: true }) })
    if (result.ok) onSaved(result.value.enabled ? 'Rules saved and on.' : 'Rules saved (off).')
  }

  return (
    <FormFrame className="panel form" label="Approval rules" onSubmit={() => void save()}>
      <p className="muted">
        The service rejects an incoming payment if nobody approves it within seconds. With rules on, Paydesk approves a
        payment at once when every condition holds, and records each decision. Anything else waits for you.
      </p>
      <label>
        <input type="checkbox" {...checkbox('enabled')} /> Approve automatically when the rules hold
      </label>
      {turningOnInProduction && (
        <label className="review">
          <input type="checkbox" {...checkbox('understood')} /> I understand Paydesk will approve real payments
          automatically
        </label>
      )}
      <fieldset>
        <legend>Amount ceiling per currency (a currency without a ceiling is never approved automatically)</legend>
        {rows.map((row, i) => {
          const [currencyKey, amountKey] = ceilingKeys(row)
          const ceiling = readCeiling(v[currencyKey] ?? '', v[amountKey] ?? '')
          return (
            <div className="row" key={row}>
              <input
                aria-label={`Currency ${i + 1}`}
                value={v[currencyKey] ?? ''}
                placeholder="USD"
                size={6}
                onChange={(e) => form.set(currencyKey, e.target.value)}
              />
              <input
                aria-label={`Ceiling ${i + 1}`}
                value={v[amountKey] ?? ''}
                placeholder="500.00"
                onChange={(e) => form.set(amountKey, e.target.value)}
              />
              {ceiling.amount !== undefined && (
                <span className="muted">
                  up to{' '}
                  {formatMoney(ceiling.amount, { code: ceiling.code, decimals: KNOWN_DECIMALS[ceiling.code] ?? 0 })}
                </span>
              )}
              <button
                type="button"
                aria-label={`Remove ceiling ${i + 1}`}
                onClick={() => setRows((all) => all.filter((r) => r !== row))}
              >
                ×
              </button>
            </div>
          )
        })}
        <button type="button" onClick={() => setRows((all) => [...all, Math.max(-1, ...all) + 1])}>
          Add a ceiling
        </button>
      </fieldset>
      <Field id="rules-senders" label="Allowed senders (one address or account id per line; empty: any sender)">
        <textarea
          id="rules-senders"
          rows={4}
          value={v['senders']}
          onChange={(e) => form.set('senders', e.target.value)}
        />
      </Field>
      <label>
        <input type="checkbox" {...checkbox('requireKyc')} /> Only when the customer’s KYC is APPROVED
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
    </FormFrame>
  )
}
