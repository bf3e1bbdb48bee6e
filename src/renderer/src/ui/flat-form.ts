import { useState } from 'react'
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

export interface FlatFormOptions {
  /** The boxes as the request the schema checks (default nestFlat); issue paths then name the boxes. */
  toInput?(values: Record<string, string>): unknown
  /** Rewrites what is typed before it is kept (codes in upper case): typing them in lower case is no mistake. */
  normalize?(key: string, value: string): string
  /**
   * What the schema cannot know, by box: an amount typed in a currency's decimals and within a balance, a choice that
   * must be made. A message comes first at its box, and a form with any is not submitted; `null` says the box is fine
   * for now (an empty amount box before any submit), hiding the schema's message about it.
   */
  checks?(values: Record<string, string>, submitted: boolean): Record<string, string | null | undefined>
  /** The box a schema issue's path belongs to, when the request is shaped unlike the boxes (default: the path). */
  boxOf?(path: string): string
}

const keep = (_key: string, value: string) => value
const samePath = (path: string) => path

/**
 * Checks the boxes: the schema's messages at the boxes their paths belong to, then the form's own checks over them
 * (a message replaces the schema's; `null` hides it). The message map is keyed by box, first message per box.
 */
export function checkBoxes<S extends z.ZodType>(
  schema: S,
  boxes: Record<string, string>,
  submitted: boolean,
  { toInput = nestFlat, checks, boxOf = samePath }: Omit<FlatFormOptions, 'normalize'> = {}
): { result: ReturnType<S['safeParse']>; issues: Record<string, string> } {
  const result = schema.safeParse(toInput(boxes)) as ReturnType<S['safeParse']>
  const issues: Record<string, string> = {}
  if (!result.success) {
    for (const issue of result.error.issues) issues[boxOf(issue.path.map(String).join('.'))] ??= issue.message
  }
  for (const [key, message] of Object.entries(checks?.(boxes, submitted) ?? {})) {
    if (message) issues[key] = message
    else if (message === null) delete issues[key]
  }
  return { result, issues }
}

/**
 * A form of flat boxes keyed by the dotted path of the request member they fill, validated by the shared zod request
 * schema (the one main validates with), so every message lands under its own box. Every form of the renderer is one.
 */
export function useFlatForm<S extends z.ZodType>(
  schema: S,
  initial: Record<string, string>,
  options: FlatFormOptions = {}
): FlatForm<S> {
  const { toInput = nestFlat, normalize = keep, checks, boxOf = samePath } = options
  const [values, setValues] = useState(initial)
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [submitted, setSubmitted] = useState(false)
  const [server, setServer] = useState<Record<string, string>>({})

  const validate = (boxes: Record<string, string>, afterSubmit: boolean) =>
    checkBoxes(schema, boxes, afterSubmit, { toInput, checks, boxOf })
  const { issues } = validate(values, submitted)

  const error = (key: string) => server[key] ?? (submitted || touched[key] ? issues[key] : undefined)

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
    set: (key, typed) => {
      const value = normalize(key, typed)
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
      const { result, issues: now } = validate(values, true)
      return result.success && Object.keys(now).length === 0 ? (result.data as z.output<S>) : null
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
