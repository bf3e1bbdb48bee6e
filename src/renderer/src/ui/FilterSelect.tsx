/**
 * A list filter's drop-down: "any" first (the empty value), then the choices. Labelled by `label` for assistive
 * technology, or shown with it as a visible caption when `caption` is set.
 */
export function FilterSelect(props: {
  label: string
  value: string
  any: string
  options: readonly (string | readonly [value: string, text: string])[]
  onChange(value: string): void
  caption?: boolean
}) {
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
