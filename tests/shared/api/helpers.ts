import { expect } from 'vitest'
import type { z } from 'zod'

export interface FoundIssue {
  path: string
  message: string
}

/** The issues a schema reports for `value`, as `{ path: 'a.b', message }` (empty when it parses). */
export function issuesOf(schema: z.ZodType, value: unknown): FoundIssue[] {
  const result = schema.safeParse(value)
  if (result.success) return []
  return result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
}

/** Asserts that `value` parses and returns the parsed value. */
export function expectValid<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value)
  if (!result.success) {
    throw new Error(`expected valid, got: ${JSON.stringify(issuesOf(schema, value))} for ${JSON.stringify(value)}`)
  }
  return result.data
}

/** Asserts that `value` fails with an issue at `path` whose message contains `message`. */
export function expectIssue(schema: z.ZodType, value: unknown, path: string, message: string | RegExp): void {
  const issues = issuesOf(schema, value)
  const hit = issues.find(
    (i) => i.path === path && (typeof message === 'string' ? i.message.includes(message) : message.test(i.message))
  )
  expect(hit, `issues were ${JSON.stringify(issues)}`).toBeDefined()
}
