import { useState } from 'react'
import type { z } from 'zod'

/**
 * Form state validated by a shared zod schema: errors per field on blur and on submit, the parsed value on success.
 * The same schema main validates with, so the form never accepts what main would refuse.
 */
export function useSchemaForm<S extends z.ZodType>(
  schema: S,
  initial: Record<string, string>,
  /** Fields where an empty box means "not given" (optional fields); elsewhere '' is validated as typed. */
  emptyMeansUnset: readonly string[] = []
) {
  const [values, setValues] = useState(initial)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [touched, setTouched] = useState<Record<string, boolean>>({})

  const toInput = (v: Record<string, string>) =>
    Object.fromEntries(Object.entries(v).filter(([key, value]) => !(value === '' && emptyMeansUnset.includes(key))))

  const validate = (v: Record<string, string>, only?: string) => {
    const result = schema.safeParse(toInput(v))
    const next: Record<string, string> = {}
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = issue.path.map(String).join('.') || '_form'
        next[key] ??= issue.message
      }
    }
    setErrors((prev) => (only ? { ...prev, [only]: next[only] ?? '' } : next))
    return result
  }

  return {
    values,
    errors: Object.fromEntries(Object.entries(errors).filter(([k, e]) => e && (touched[k] || k === '_form'))),
    set: (name: string, value: string) => setValues((v) => ({ ...v, [name]: value })),
    blur: (name: string) => {
      setTouched((t) => ({ ...t, [name]: true }))
      validate(values, name)
    },
    /** Validates everything; returns the parsed value or null (and shows every error). */
    submit: (): z.output<S> | null => {
      setTouched(Object.fromEntries(Object.keys(values).map((k) => [k, true])))
      const result = validate(values)
      return result.success ? result.data : null
    },
    reset: () => {
      setValues(initial)
      setErrors({})
      setTouched({})
    },
    setServerErrors: (fieldErrors: Record<string, string[]>) =>
      setErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k || '_form', v[0] ?? ''])))
  }
}
