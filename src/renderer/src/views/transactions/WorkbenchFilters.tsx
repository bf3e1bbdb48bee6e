import { memo, type ReactNode } from 'react'
import { TRANSACTION_STATUSES } from '../../../../shared/api'
import { FilterSelect } from '../../ui/FilterSelect'
import { KNOWN_DECIMALS } from '../../../../shared/format/money'
import { CustomerPicker } from './CustomerPicker'
import { chipsOf, DATE_PRESETS, type WorkbenchFilters as Filters } from './workbench-filters'

type SetFilter = (key: keyof Filters & string, value: string) => void

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone
const DIRECTIONS = [
  ['INCOMING', 'Incoming'],
  ['OUTGOING', 'Outgoing']
] as const

function TextFilter(props: { label: string; name: keyof Filters; filters: Filters; set: SetFilter; hint?: string }) {
  return (
    <label className="field-inline">
      <span>{props.label}</span>
      <input
        type="search"
        value={props.filters[props.name]}
        placeholder={props.hint}
        onChange={(e) => props.set(props.name, e.target.value)}
      />
    </label>
  )
}

/** One end of the amount range, typed in the chosen currency: without a currency it cannot be read, so it waits. */
function AmountBound(props: {
  label: string
  name: 'amountMin' | 'amountMax'
  filters: Filters
  set: SetFilter
  error: ReactNode
}) {
  const { filters, name } = props
  return (
    <label className="field-inline">
      <span>{props.label}</span>
      <input
        inputMode="decimal"
        value={filters[name]}
        disabled={!filters.currency && !filters[name]}
        title={filters.currency ? undefined : 'Choose a currency first'}
        onChange={(e) => props.set(name, e.target.value)}
      />
      {props.error}
    </label>
  )
}

/**
 * The search box is not among these filters: a keystroke there leaves every one of them as it was, so they are not
 * rendered again (their inputs and selects would otherwise be diffed and set on every keystroke, ahead of the list).
 */
export const WorkbenchFilters = memo(
  WorkbenchFiltersInner,
  (a, b) =>
    a.set === b.set &&
    (Object.keys(a.filters) as (keyof Filters)[]).every((k) => k === 'search' || a.filters[k] === b.filters[k]) &&
    JSON.stringify(a.errors) === JSON.stringify(b.errors)
)

/**
 * Every filter of spec 4.9 plus currency and an amount range, behind one "+ Filter" button: a popover (the browser's
 * own, so Esc and a click outside close it and nothing else is covered while it is closed). What is set shows as
 * removable chips on one line under the search box.
 */
function WorkbenchFiltersInner({
  filters,
  set,
  errors
}: {
  filters: Filters
  set: SetFilter
  errors: Partial<Record<keyof Filters, string>>
}) {
  const statuses = filters.status.split(',').filter(Boolean)
  const toggleStatus = (status: string, on: boolean) =>
    set('status', (on ? [...statuses, status] : statuses.filter((s) => s !== status)).join(','))
  const chips = chipsOf(filters)
  const error = (key: keyof Filters) =>
    errors[key] ? (
      <span className="field-error" role="alert">
        {errors[key]}
      </span>
    ) : null

  return (
    <div className="workbench">
      <button className="filter-button" popoverTarget="workbench-filters" aria-haspopup="dialog">
        + Filter{chips.length ? ` (${chips.length})` : ''}
      </button>
      <div id="workbench-filters" className="filter-popover" popover="auto" role="dialog" aria-label="Filters">
        <fieldset className="status-picker">
          <legend>Status (any of)</legend>
          {TRANSACTION_STATUSES.map((s) => (
            <label key={s}>
              <input
                type="checkbox"
                checked={statuses.includes(s)}
                onChange={(e) => toggleStatus(s, e.target.checked)}
              />
              {s}
            </label>
          ))}
        </fieldset>
        <div className="filter-fields">
          <FilterSelect
            caption
            label="Direction"
            value={filters.type}
            any="In and out"
            options={DIRECTIONS}
            onChange={(v) => set('type', v)}
          />
          <CustomerPicker value={filters.customerId} onChange={(id) => set('customerId', id)} />
          <TextFilter label="Platform customer id" name="platformCustomerId" filters={filters} set={set} />
          <TextFilter label="Sender account" name="senderAccountId" filters={filters} set={set} hint="Account id" />
          <TextFilter label="Receiver account" name="receiverAccountId" filters={filters} set={set} hint="Account id" />
          <TextFilter label="Reference" name="reference" filters={filters} set={set} />
          <FilterSelect
            caption
            label="Currency"
            value={filters.currency}
            any="Any currency"
            options={Object.keys(KNOWN_DECIMALS)}
            onChange={(v) => set('currency', v)}
          />
          <AmountBound label="Amount from" name="amountMin" filters={filters} set={set} error={error('amountMin')} />
          <AmountBound label="Amount to" name="amountMax" filters={filters} set={set} error={error('amountMax')} />
          <FilterSelect
            caption
            label={`Created (${ZONE})`}
            value={filters.datePreset}
            any="Any time"
            options={DATE_PRESETS}
            onChange={(v) => set('datePreset', v)}
          />
          {filters.datePreset === 'custom' && (
            <>
              <label className="field-inline">
                <span>From</span>
                <input type="date" value={filters.dateFrom} onChange={(e) => set('dateFrom', e.target.value)} />
                {error('dateFrom')}
              </label>
              <label className="field-inline">
                <span>To</span>
                <input type="date" value={filters.dateTo} onChange={(e) => set('dateTo', e.target.value)} />
                {error('dateTo')}
              </label>
            </>
          )}
        </div>
      </div>
      {chips.length > 0 && (
        <ul className="filter-chips" aria-label="Active filters">
          {chips.map((chip) => (
            <li key={chip.label}>
              <span>{chip.label}</span>
              <button
                aria-label={`Remove filter ${chip.label}`}
                onClick={() => chip.keys.forEach((key) => set(key, ''))}
              >
                ×
              </button>
            </li>
          ))}
          {chips.length > 1 && (
            <li>
              <button className="link" onClick={() => chips.flatMap((c) => c.keys).forEach((key) => set(key, ''))}>
                Clear all filters
              </button>
            </li>
          )}
        </ul>
      )}
      {/* Errors stay in sight with the popover closed: the condition they name is left out of the list meanwhile. */}
      {Object.keys(errors).length > 0 && (
        <span className="field-error">Fix the filters marked in + Filter: {Object.values(errors).join('; ')}</span>
      )}
    </div>
  )
}
