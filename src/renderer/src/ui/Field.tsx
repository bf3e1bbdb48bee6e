import type { ReactNode } from 'react'

/**
 * Label above the control, one message line below it (hint or inline error), wired for screen readers. The message
 * line always keeps its height, so an error appearing on blur never shifts the form under the pointer.
 */
export function Field(props: {
  id: string
  label: string
  error?: string | undefined
  hint?: string
  children: ReactNode
}) {
  return (
    <div className={props.error ? 'field field-invalid' : 'field'}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.error ? (
        <p className="field-message field-error" id={`${props.id}-error`} role="alert">
          {props.error}
        </p>
      ) : (
        <p className="field-message field-hint">{props.hint ?? ''}</p>
      )}
    </div>
  )
}
