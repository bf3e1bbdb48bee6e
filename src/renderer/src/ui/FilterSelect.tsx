import type { AccountOwnerScope } from '../../../shared/ipc/channels/data'

/**
 * A list filter's drop-down: "any" first (the empty value), then the choices. Labelled by `label` for assistive
 * technology, or shown with it as a visible caption when `caption` is set.
 */
interface FilterSelectProps {
  label: string
  value: string
  any: string
  options: readonly (string | readonly [value: string, text: string])[]
  onChange(value: string): void
  caption?: boolean
}

export function FilterSelect(props: FilterSelectProps) {
  const select = (
    <select
      aria-label={props.caption ? undefined : props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    >
      <option value="">{props.any}</option>
      {props.options.map((option) => {
        const [value, text] = typeof option === 'string' ? [option, option] : option
        return (
          <option key={value} value={value}>
            {text}
          </option>
        )
      })}
    </select>
  )
  if (!props.caption) return select
  return (
    <label className="field-inline">
      <span>{props.label}</span>
      {select}
    </label>
  )
}

/** A FilterSelect for one of a list's filters, by name: it shows that filter and sets it (useListState's pair). */
export function ListFilterSelect<F extends Record<string, string>>({
  list,
  name,
  ...rest
}: Omit<FilterSelectProps, 'value' | 'onChange'> & {
  list: { filters: F; setFilter(key: keyof F & string, value: string): void }
  name: keyof F & string
}) {
  return <FilterSelect {...rest} value={list.filters[name] ?? ''} onChange={(v) => list.setFilter(name, v)} />
}

const OWNERS = [
  ['all', 'All'],
  ['platform', 'Platform'],
  ['customer', 'Customers']
] as const

/** Whose accounts a list shows: everyone's, the platform's own, or the customers'. */
export function OwnerFilter(props: { value: string; onChange(owner: AccountOwnerScope): void }) {
  return (
    <div className="segmented" role="group" aria-label="Owner">
      {OWNERS.map(([owner, text]) => (
        <button key={owner} aria-pressed={props.value === owner} onClick={() => props.onChange(owner)}>
          {text}
        </button>
      ))}
    </div>
  )
}
