import type { z } from 'zod'
import { Field } from './Field'
import type { FlatForm } from './flat-form'

/** The DOM id of a flat form's box: the form's prefix plus the dotted key, made id-safe. */
export const fieldId = (prefix: string, name: string) => `${prefix}-${name.replace(/[^a-zA-Z0-9]+/g, '-')}`

interface Common<S extends z.ZodType> {
  form: FlatForm<S>
  prefix: string
  name: string
  label: string
  hint?: string
}

/** What every bound box shares: its Field (label, hint or message) and the control's id, value, blur and error wiring. */
function bind<S extends z.ZodType>(props: Common<S>) {
  const id = fieldId(props.prefix, props.name)
  const error = props.form.error(props.name)
  return {
    field: { id, label: props.label, error, ...(props.hint ? { hint: props.hint } : {}) },
    control: {
      id,
      value: props.form.values[props.name] ?? '',
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-error` : undefined,
      onBlur: () => props.form.blur(props.name)
    }
  }
}

/** A labelled text box bound to one dotted key of a flat form, its message line under it. */
export function TextField<S extends z.ZodType>(
  props: Common<S> & {
    type?: string
    placeholder?: string
    autoFocus?: boolean
    inputMode?: 'numeric' | 'decimal' | 'text' | 'email' | 'tel'
    className?: string
  }
) {
  const { field, control } = bind(props)
  return (
    <Field {...field}>
      <input
        {...control}
        type={props.type ?? 'text'}
        className={props.className}
        placeholder={props.placeholder}
        autoFocus={props.autoFocus}
        inputMode={props.inputMode}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => props.form.set(props.name, e.target.value)}
      />
    </Field>
  )
}

export interface Option {
  value: string
  label: string
}

/** A labelled select bound to one dotted key of a flat form. */
export function SelectField<S extends z.ZodType>(
  props: Common<S> & { options: readonly Option[]; placeholder?: string; onChange?(value: string): void }
) {
  const { field, control } = bind(props)
  return (
    <Field {...field}>
      <select
        {...control}
        onChange={(e) => (props.onChange ? props.onChange(e.target.value) : props.form.set(props.name, e.target.value))}
      >
        {props.placeholder !== undefined && <option value="">{props.placeholder}</option>}
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  )
}

/** Messages that belong to no single box, listed above the submit button after a submit. */
export function FormErrors({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null
  return (
    <ul className="form-errors" role="alert">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  )
}

/** After a refused submit: focus the first box with an error (or show the list of other errors). */
export function revealFirstError(form: HTMLElement | null) {
  requestAnimationFrame(() => {
    const target = form?.querySelector<HTMLElement>('[aria-invalid="true"], .form-errors')
    if (!target) return
    if (target.tagName === 'INPUT' || target.tagName === 'SELECT') target.focus()
    target.scrollIntoView({ block: 'center' })
  })
}
