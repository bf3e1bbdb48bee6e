import { useState } from 'react'
import { GateRules } from '../../../../shared/gate'
import { formatMoney, KNOWN_DECIMALS } from '../../../../shared/format/money'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { ErrorNotice } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { FormErrors, SelectField, TextField } from '../../ui/FormFields'
import { useFlatForm, type FlatForm } from '../../ui/flat-form'
import { FormFrame } from '../../ui/form-submit'
import { SkeletonRows } from '../../ui/view-states'
import { ConfirmedSubmit, useProductionAsk } from './ConfirmTwice'
import { boxesToRules, boxOfPath, ruleChecks, readCeiling, rulesToBoxes, YES, type RuleLayout } from './rules-form'

const ACTIONS = [
  { value: 'approve', label: 'Approve at once' },
  { value: 'ask', label: 'Ask an operator' },
  { value: 'reject', label: 'Reject' }
]
const FALLBACKS = [
  { value: 'reject', label: 'Reject' },
  { value: 'approve', label: 'Approve' }
]

/** The gate's rules as it holds them; the form starts again from them whenever they change (a save, another operator). */
export function RulesEditor() {
  const query = useChannelQuery('gate.rules.get', null)
  const [saved, setSaved] = useState<string | null>(null)
  if (query.error && !query.data) return <ErrorNotice error={query.error} onRetry={query.reload} />
  if (!query.data) return <SkeletonRows label="rules" />
  return <RulesForm key={JSON.stringify(query.data)} rules={query.data} saved={saved} onSaved={setSaved} />
}

function RulesForm(props: { rules: GateRules; saved: string | null; onSaved(message: string): void }) {
  const ask = useProductionAsk()
  const initial = rulesToBoxes(props.rules)
  const [layout, setLayout] = useState<RuleLayout[]>(initial.layout)
  const saving = useChannelMutation('gate.rules.set', { invalidates: ['gate.rules.get', 'gate.log'] })
  const form = useFlatForm(GateRules, initial.boxes, {
    toInput: (v) => boxesToRules(v, layout),
    checks: (v) => ruleChecks(v, layout),
    boxOf: (path) => boxOfPath(path, layout)
  })
  /** Every box of the editor is bound to its form under the same id prefix. */
  const bound = { form, prefix: 'rules' }
  const nextId = () => Math.max(-1, ...layout.map((r) => r.id)) + 1
  const addRule = () => {
    const id = nextId()
    form.setMany({
      [`r${id}.action`]: 'approve',
      [`r${id}.fallback`]: 'reject',
      [`r${id}.kyc`]: '',
      [`r${id}.c0.currency`]: 'USD'
    })
    setLayout((all) => [...all, { id, ceilings: [0] }])
  }
  const move = (index: number, by: -1 | 1) =>
    setLayout((all) => {
      const next = [...all]
      const [rule] = next.splice(index, 1)
      if (rule) next.splice(index + by, 0, rule)
      return next
    })
  const save = async () => {
    const rules = form.submit()
    if (!rules) return
    const result = await saving.run({ rules, ...(ask.production && { confirmProduction: true }) })
    if (result.ok)
      props.onSaved(
        `Rules saved at the gate (${result.value.rules.length} rule${result.value.rules.length === 1 ? '' : 's'}).`
      )
  }
  const shown = [
    'otherwise',
    'otherwiseFallback',
    ...layout.flatMap(({ id, ceilings }) => [
      ...['name', 'action', 'reason', 'fallback', 'senders', 'kyc'].map((m) => `r${id}.${m}`),
      ...ceilings.flatMap((row) => [`r${id}.c${row}.currency`, `r${id}.c${row}.amount`])
    ])
  ]

  return (
    <FormFrame className="panel form rules-editor" label="Approval rules" onSubmit={() => void save()}>
      <p className="muted">
        The gate answers every payment at once: the first rule whose conditions all hold decides; when none does,
        “otherwise” does. “Ask an operator” prompts you, and if nobody answers before the gate’s margin its fallback
        applies.
      </p>
      {layout.map((rule, index) => (
        <RuleBox
          key={rule.id}
          form={form}
          rule={rule}
          index={index}
          count={layout.length}
          onMove={(by) => move(index, by)}
          onRemove={() => setLayout((all) => all.filter((r) => r.id !== rule.id))}
          onCeilings={(ceilings) => setLayout((all) => all.map((r) => (r.id === rule.id ? { ...r, ceilings } : r)))}
        />
      ))}
      <div className="row">
        <button type="button" onClick={addRule}>
          Add a rule
        </button>
      </div>
      <fieldset>
        <legend>When no rule’s conditions hold</legend>
        <SelectField {...bound} name="otherwise" label="Otherwise" options={[ACTIONS[1]!, ACTIONS[2]!]} />
        {form.values['otherwise'] === 'ask' && (
          <SelectField {...bound} name="otherwiseFallback" label="If nobody answers in time" options={FALLBACKS} />
        )}
      </fieldset>
      <FormErrors messages={form.otherErrors(shown)} />
      <ConfirmedSubmit
        ask={ask}
        warning="Production: these rules decide real payments from the moment they are saved."
        action={saving}
        label="Save rules"
        busyLabel="Saving…"
        done={props.saved}
      />
    </FormFrame>
  )
}

function RuleBox(props: {
  form: FlatForm<typeof GateRules>
  rule: RuleLayout
  index: number
  count: number
  onMove(by: -1 | 1): void
  onRemove(): void
  onCeilings(rows: number[]): void
}) {
  const { form, rule, index } = props
  const bound = { form, prefix: 'rules' }
  const key = (member: string) => `r${rule.id}.${member}`
  const v = form.values
  const n = index + 1
  const action = v[key('action')]
  return (
    <fieldset className="rule" aria-label={`Rule ${n}`}>
      <legend>Rule {n}</legend>
      <TextField {...bound} name={key('name')} label={`Rule ${n} name`} />
      <fieldset>
        <legend>Rule {n}: amount ceiling per currency (a currency without one never matches)</legend>
        {rule.ceilings.map((row, i) => {
          const ceiling = readCeiling(v[key(`c${row}.currency`)] ?? '', v[key(`c${row}.amount`)] ?? '')
          const decimals = KNOWN_DECIMALS[ceiling.code]
          return (
            <div className="row" key={row}>
              <TextField
                {...bound}
                name={key(`c${row}.currency`)}
                label={`Rule ${n} currency ${i + 1}`}
                placeholder="USD"
              />
              <TextField
                {...bound}
                name={key(`c${row}.amount`)}
                label={`Rule ${n} ceiling ${i + 1}`}
                placeholder="500.00"
                inputMode="decimal"
                hint={
                  ceiling.amount !== undefined && decimals !== undefined
                    ? `up to ${formatMoney(ceiling.amount, { code: ceiling.code, decimals })}`
                    : ''
                }
              />
              <button
                type="button"
                aria-label={`Remove rule ${n} ceiling ${i + 1}`}
                onClick={() => props.onCeilings(rule.ceilings.filter((r) => r !== row))}
              >
                ×
              </button>
            </div>
          )
        })}
        <button type="button" onClick={() => props.onCeilings([...rule.ceilings, Math.max(-1, ...rule.ceilings) + 1])}>
          Add a ceiling to rule {n}
        </button>
      </fieldset>
      <Field
        id={`rules-${rule.id}-senders`}
        label={`Rule ${n} allowed senders (one per line; empty: any sender)`}
        error={form.error(key('senders'))}
      >
        <textarea
          id={`rules-${rule.id}-senders`}
          rows={2}
          value={v[key('senders')] ?? ''}
          onChange={(e) => form.set(key('senders'), e.target.value)}
        />
      </Field>
      <label>
        <input
          type="checkbox"
          checked={v[key('kyc')] === YES}
          onChange={(e) => form.set(key('kyc'), e.target.checked ? YES : '')}
        />{' '}
        Rule {n}: only when the customer’s KYC is APPROVED
      </label>
      <SelectField {...bound} name={key('action')} label={`Rule ${n}: then`} options={ACTIONS} />
      {action === 'reject' && (
        <TextField {...bound} name={key('reason')} label={`Rule ${n} reason sent with the rejection`} />
      )}
      {action === 'ask' && (
        <SelectField
          {...bound}
          name={key('fallback')}
          label={`Rule ${n}: if nobody answers in time`}
          options={FALLBACKS}
        />
      )}
      <div className="row">
        <button type="button" disabled={index === 0} onClick={() => props.onMove(-1)}>
          Move rule {n} up
        </button>
        <button type="button" disabled={index === props.count - 1} onClick={() => props.onMove(1)}>
          Move rule {n} down
        </button>
        <button type="button" className="danger" onClick={props.onRemove}>
          Remove rule {n}
        </button>
      </div>
    </fieldset>
  )
}
