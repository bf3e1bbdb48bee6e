import { useId, type Ref } from 'react'

/**
 * A list's search box, focused by `/`. Esc leaves the box but keeps what was typed (Chromium would clear a search
 * input on Esc; the list should stay as the operator filtered it).
 *
 * A list whose search has rules (`hint` given, null while none applies) says beside the box why what was typed does not
 * search yet. The hint's region is there from the start, empty, so a screen reader announces the text when it appears.
 */
export function SearchBox(props: {
  label: string
  placeholder: string
  value: string
  onChange(value: string): void
  hint?: string | null
  ref: Ref<HTMLInputElement>
}) {
  const { ref, label, placeholder, value, onChange, hint } = props
  const hintId = useId()
  return (
    <>
      <input
        ref={ref}
        type="search"
        aria-label={label}
        aria-describedby={hint ? hintId : undefined}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') e.preventDefault()
        }}
      />
      {hint !== undefined && (
        <span id={hintId} className="search-hint muted" aria-live="polite">
          {hint ?? ''}
        </span>
      )}
    </>
  )
}
