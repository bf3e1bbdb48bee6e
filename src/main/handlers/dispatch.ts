import { z } from 'zod'
import { channels, isChannelName, type ChannelName, type ChannelOutput } from '../../shared/ipc/contract'
import type { IpcResult } from '../../shared/ipc/define'
import { AppError } from '../infra/app-error'

/** One plain async function per channel: what main answers. Built by `createBackend`. */
export type Handlers = {
  [K in ChannelName]: (input: z.output<(typeof channels)[K]['input']>) => Promise<ChannelOutput<K>>
}

function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.')
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}

function describeInvalidInput(error: z.ZodError): string {
  const first = error.issues[0]
  if (!first) return 'The request was not valid.'
  const where = first.path.length ? `${first.path.map(String).join('.')}: ` : ''
  return `${where}${first.message}`
}

/**
 * The single entry point for every IPC call, used by the Electron adapter and by browser mode alike: checks the
 * channel name, validates the input with the contract's schema (nothing runs on bad input), runs the handler, and turns
 * every failure into a typed error result. Unexpected errors are reported without their internals.
 */
export async function dispatch<K extends ChannelName>(
  handlers: Handlers,
  name: K | string,
  rawInput: unknown,
  log: (message: string) => void = () => {}
): Promise<IpcResult<ChannelOutput<K>>> {
  if (!isChannelName(name)) {
    return {
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL', message: `Paydesk has no operation called "${String(name)}".` }
    }
  }
  const spec = channels[name]
  const parsed = spec.input.safeParse(rawInput ?? null)
  if (!parsed.success) {
    return {
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: describeInvalidInput(parsed.error),
        fieldErrors: fieldErrorsOf(parsed.error)
      }
    }
  }
  try {
    const handler = handlers[name] as (input: unknown) => Promise<unknown>
    const value = await handler(parsed.data)
    return { ok: true, value: value as ChannelOutput<K> }
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toIpcError() }
    // Internals (stack, request details) stay in main; the operator gets a sentence and the log gets the name only.
    log(`ipc ${name} failed: ${error instanceof Error ? error.name : typeof error}`)
    return {
      ok: false,
      error: { code: 'INTERNAL', message: 'Something went wrong inside Paydesk. Check the log, then try again.' }
    }
  }
}
