import type { Ref } from 'react'

/**
 * A list's search box, focused by `/`. Esc leaves the box but keeps what was typed (Chromium would clear a search
 * input on Esc; the list should stay as the operator filtered it).
 */
export function SearchBox(props: {
  label: string
  placeholder: string
  value: string
  onChange(value: string): void
  ref: Ref<HTMLInputElement>
}) {
  const { ref, label, placeholder, value, onChange } = props
  return (
    <input
      ref={ref}
      type="search"
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') e.preventDefault()
      }}
    />
  )
}
