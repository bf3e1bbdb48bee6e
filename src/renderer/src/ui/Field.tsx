import type { ReactNode } from 'react'

/** Label above the control, inline error below it, wired for screen readers. */
export function Field(props: { id: string; label: string; error?: string | undefined; hint?: string; children: ReactNode }) {
  return (
    <div className={props.error ? 'field field-invalid' : 'field'}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint && !props.error && <p className="field-hint">{props.hint}</p>}
      {props.error && (
        <p className="field-error" id={`${props.id}-error`} role="alert">
          {props.error}
        </p>
      )}
    </div>
  )
}
