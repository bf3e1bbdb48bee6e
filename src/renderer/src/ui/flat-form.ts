import { useCallback, useMemo, useState } from 'react'
import type { z } from 'zod'

/**
 * Builds a nested value from dotted keys ("accountInfo.beneficiary.address.city"), leaving out every empty box, so an
 * optional object (an address) exists only when one of its members was typed. `true`/`false` stay strings here;
 * callers convert the few booleans they have.
 */
export function nestFlat(values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, raw] of Object.entries(values)) {
    const value = raw.trim()
    if (value === '') continue
    const parts = key.split('.')
    let node = out
    for (const part of parts.slice(0, -1)) {
      const next = node[part]
      if (typeof next !== 'object' || next === null) node[part] = {}
      node = node[part] as Record<string, unknown>
    }
    node[parts[parts.length - 1] as string] = value
  }
  return out
}

export interface FlatForm<S extends z.ZodType> {
  values: Record<string, string>
  /** The message to show under a field (after it was left once, or after a submit), or undefined. */
  error(key: string): string | undefined
  /** Messages whose path is none of `shownKeys` (a whole object missing, a union choice): shown above the button. */
  otherErrors(shownKeys: readonly string[]): string[]
  set(key: string, value: string): void
  setMany(patch: Record<string, string>): void
  blur(key: string): void
  /** Validates everything, shows every error; the parsed value, or null. */
  submit(): z.output<S> | null
  reset(values?: Record<string, string>): void
  /** Main's fieldErrors (dotted paths), shown until the field is edited. */
  setServerErrors(fieldErrors: Record<string, string[]>): void
}

/**
 * A form of flat text boxes keyed by the dotted path of the request member they fill, validated by the shared zod
 * request schema (the one main validates with). `toInput` turns the boxes into the request (nestFlat plus any
 * conversion); issue paths then name the box directly, so every message lands under its own field.
 */
export function useFlatForm<S extends z.ZodType>(
  schema: S,
  initial: Record<string, string>,
  toInput: (values: Record<string, string>) => unknown = nestFlat
): FlatForm<S> {
  const [values, setValues] = useState(initial)
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [submitted, setSubmitted] = useState(false)
  const [server, setServer] = useState<Record<string, string>>({})

  const issues = useMemo(() => {
    const result = schema.safeParse(toInput(values))
    const map: Record<string, string> = {}
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = issue.path.map(String).join('.')
        map[key] ??= issue.message
      }
    }
    return map
  }, [schema, toInput, values])

  const error = useCallback(
    (key: string) => server[key] ?? (submitted || touched[key] ? issues[key] : undefined),
    [issues, server, submitted, touched]
  )

  return {
    values,
    error,
    otherErrors: (shownKeys) => {
      if (!submitted) return server[''] ? [server['']] : []
      const all = { ...issues, ...server }
      return [
        ...new Set(
          Object.entries(all)
            .filter(([k]) => !shownKeys.includes(k))
            .map(([, m]) => m)
        )
      ]
    },
    set: (key, value) => {
      setValues((v) => ({ ...v, [key]: value }))
      setServer((s) => {
        if (!(key in s)) return s
        const { [key]: _, ...rest } = s
        return rest
      })
    },
    setMany: (patch) => setValues((v) => ({ ...v, ...patch })),
    blur: (key) => setTouched((t) => (t[key] ? t : { ...t, [key]: true })),
    submit: () => {
      setSubmitted(true)
      setServer({})
      const result = schema.safeParse(toInput(values))
      return result.success ? (result.data as z.output<S>) : null
    },
    reset: (next) => {
      setValues(next ?? initial)
      setTouched({})
      setSubmitted(false)
      setServer({})
    },
    setServerErrors: (fieldErrors) =>
      setServer(
        Object.fromEntries(
          Object.entries(fieldErrors)
            .map(([k, v]) => [k, v[0] ?? ''])
            .filter(([, m]) => m)
        )
      )
  }
}
