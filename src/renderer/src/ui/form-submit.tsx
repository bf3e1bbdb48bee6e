import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react'
import type { z } from 'zod'
import type { ChannelInput, ChannelName, ChannelOutput } from '../../../shared/ipc/contract'
import type { IpcError } from '../../../shared/ipc/define'
import { useChannelMutation, type ChannelMutation } from '../data/channel-query'
import type { FlatForm } from './flat-form'
import { revealFirstError } from './FormFields'
import { ActionResult } from './view-states'

/** What main answered when a write failed: its sentence and its code, plus what the form adds about the next step. */
export function FailedAction(props: { error: IpcError | null; withCode?: boolean; children?: ReactNode }) {
  if (!props.error) return null
  return (
    <ActionResult
      ok={false}
      code={props.withCode === false ? undefined : (props.error.serviceCode ?? props.error.code)}
    >
      {props.error.message}
      {props.children}
    </ActionResult>
  )
}

/** Every form's frame: the browser's own validation is off (the shared schema validates), Enter submits. */
export function FormFrame({
  formRef,
  labelledBy,
  label,
  className,
  onSubmit,
  children
}: {
  /** The form's name: the id of its heading, or (with no heading) the words themselves. */
  labelledBy?: string
  label?: string
  className?: string
  onSubmit(): void
  formRef?: RefObject<HTMLFormElement | null>
  children: ReactNode
}) {
  return (
    <form
      ref={formRef}
      className={className}
      aria-labelledby={labelledBy}
      aria-label={label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        onSubmit()
      }}
    >
      {children}
    </form>
  )
}

/** A form's last row: the submit button, which says what it does (or that it is doing it), and Cancel. */
export function SubmitRow(props: { busy: boolean; label: string; busyLabel: string; onCancel(): void }) {
  return (
    <div className="row">
      <button type="submit" className="primary" disabled={props.busy}>
        {props.busy ? props.busyLabel : props.label}
      </button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  )
}

export interface FormSubmit<K extends ChannelName> extends Pick<ChannelMutation<K>, 'busy' | 'error'> {
  submit(): void
  formRef: RefObject<HTMLFormElement | null>
}

/**
 * Submitting a schema form through one channel: the shared schema validates (the first message is revealed), the
 * write runs while `busy`, and main's field errors land under their boxes (and the first is revealed once drawn).
 * `toRequest` wraps the parsed boxes into the channel's input; `serverPath` maps main's paths back to box keys.
 */
export function useFormSubmit<S extends z.ZodType, K extends ChannelName>(
  form: FlatForm<S>,
  channel: K,
  onDone: (value: ChannelOutput<K>) => void,
  options: { toRequest?: (body: z.output<S>) => ChannelInput<K>; serverPath?: (path: string) => string } = {}
): FormSubmit<K> {
  const mutation = useChannelMutation(channel)
  const formRef = useRef<HTMLFormElement>(null)
  const [reveal, setReveal] = useState(0)
  useEffect(() => {
    if (reveal > 0) revealFirstError(formRef.current)
  }, [reveal])
  const { toRequest = (body: z.output<S>) => body as ChannelInput<K>, serverPath = (path: string) => path } = options
  const submit = async () => {
    const body = form.submit()
    if (!body) return revealFirstError(formRef.current)
    const result = await mutation.run(toRequest(body))
    if (!result.ok) {
      const fieldErrors = result.error.fieldErrors
      if (fieldErrors) {
        form.setServerErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [serverPath(k), v])))
        setReveal((n) => n + 1)
      }
      return
    }
    onDone(result.value)
  }
  return { submit: () => void submit(), busy: mutation.busy, error: mutation.error, formRef }
}
