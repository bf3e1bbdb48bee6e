import { AppError } from '../infra/app-error'
import type { ApiClient } from '../infra/api-client'
import { ApiError } from '../infra/api-errors'

/**
 * How services reach a profile's API client: the one sentence for a profile without a secret, and the one mapping of
 * a network failure of a write to OFFLINE (writes go straight to the service and are never queued).
 */

export function requireClient(client: ApiClient | undefined): ApiClient {
  if (!client) throw new AppError('UNAUTHORIZED', 'This profile has no client secret yet: add it in Settings.')
  return client
}

/**
 * A network failure of a write as OFFLINE, saying whether it may have been applied; any other error unchanged, except
 * that a write which may have been applied (a timeout, a 5xx) says so to the window (`maybeApplied`), which then tells
 * the outcome once it is known.
 */
function offlineError(error: unknown, what: string): unknown {
  if (!(error instanceof ApiError)) return error
  if (!error.isNetwork) {
    if (!error.maybeProcessed || error.httpStatus === 404) return error
    return new AppError(error.code, error.message, {
      ...(error.serviceCode !== undefined && { serviceCode: error.serviceCode }),
      ...(error.httpStatus !== undefined && { httpStatus: error.httpStatus }),
      maybeApplied: true
    })
  }
  const maybe = error.maybeProcessed
    ? ' The connection dropped after the request was sent, so it may have been applied: check before trying again.'
    : ' Nothing was sent and nothing was queued: try again when the connection is back.'
  return new AppError('OFFLINE', `Paydesk is offline and could not ${what}. ${error.message}${maybe}`, {
    ...(error.httpStatus !== undefined && { httpStatus: error.httpStatus }),
    ...(error.maybeProcessed && { maybeApplied: true })
  })
}

/** Runs a write with the profile's client; a network failure becomes OFFLINE (`offlineError`). */
export async function writeOnline<T>(
  client: ApiClient | undefined,
  what: string,
  work: (client: ApiClient) => Promise<T>
): Promise<T> {
  const c = requireClient(client)
  try {
    return await work(c)
  } catch (error) {
    throw offlineError(error, what)
  }
}
