import { ActionReason, MAX_ACTION_REASON } from '../../../../shared/action-log'
import { Field } from '../../ui/Field'

/**
 * The operator's reason for a manual action, kept with it in History (never sent to the service). Bounded by the
 * shared schema, whose message shows at the field; `error` is the caller's own (a reason it requires).
 */
export function ReasonField(props: {
  id: string
  value: string
  onChange(value: string): void
  error?: string | undefined
  label?: string
}) {
  const checked = ActionReason.safeParse(props.value)
  const error = props.error ?? (checked.success ? undefined : checked.error.issues[0]?.message)
  return (
    <Field
      id={props.id}
      label={props.label ?? 'Reason (optional)'}
      hint="Kept with this action in History"
      error={error}
    >
      <input
        id={props.id}
        value={props.value}
        maxLength={MAX_ACTION_REASON}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${props.id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </Field>
  )
}

/** The reason as a channel input field: absent when blank. */
export const reasonInput = (reason: string) => (reason.trim() ? { reason: reason.trim() } : {})
