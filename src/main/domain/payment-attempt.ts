import { AppError } from '../infra/app-error'
import { ApiError } from '../infra/api-errors'
import type { Transaction } from '../../shared/api'
import type { ApiClient } from '../infra/api-client'
import type { StoredProfile } from './profiles'
import type { StoredTransferRecord, TransferJournal } from './transfer-journal'

/** What a money-moving service (transfers, quote executions) needs from the profile's session. */
export interface PaymentDeps {
  profile: StoredProfile
  /** The transfer journal: every money-moving action is a record in it, under the same rules. */
  journal: TransferJournal
  /** The profile's API client; throws when it has no secret. */
  client(): ApiClient
  cachedTransaction(id: string): Transaction | undefined
  /** A transaction the service returned for an operator action: cache it, refresh balances, follow its status. */
  onTransaction(transaction: Transaction): Promise<void>
  now(): number
  log(message: string): void
}

/** Refusals of the caller rather than of the payment: nothing was processed, and the same request is refused again. */
const CREDENTIALS = new Set([401, 403])

/**
 * What a failed attempt at a money-moving call means for the money, recorded in the journal, and the sentence for the
 * operator. Shared by transfer-outs and quote executions so both follow one state machine:
 * prepared → sent | refused | unknown, and once a payment may have gone through ('unknown') or went through ('sent'),
 * no later failure can say otherwise.
 */
export async function recordFailedAttempt(
  journal: TransferJournal,
  record: StoredTransferRecord,
  error: unknown,
  o: { noun: 'transfer' | 'payment' }
): Promise<unknown> {
  const apiError = error instanceof ApiError ? error : undefined
  const status = apiError?.kind === 'http' && !apiError.maybeProcessed ? apiError.httpStatus : undefined
  // Refused: the service looked at this payment, or at who asked, and said no (400, 401, 403, 404, 409, 422...): it
  // was not processed and is final. Not refused: it never got that far (408, 429) or we cannot know.
  const refused = status !== undefined && ![408, 429].includes(status)
  const neverSent = apiError !== undefined && !apiError.maybeProcessed && !refused
  const prior = record.state
  const state = prior === 'sent' || prior === 'unknown' ? prior : refused ? 'refused' : neverSent ? prior : 'unknown'
  await journal.update(record.actionId, {
    state,
    lastError: error instanceof AppError ? error.message : 'failed inside Paydesk'
  })
  const { noun } = o
  if (refused && status !== undefined && CREDENTIALS.has(status) && apiError && state === 'refused') {
    return new AppError(apiError.code, `${apiError.message} The ${noun} was not sent.`, extraOf(apiError))
  }
  if (refused || !apiError) return error
  const safe = `Retrying this same ${noun} is safe: Paydesk first looks it up at the service, and the retry reuses its idempotency key.`
  if (apiError.isNetwork) {
    return new AppError(
      'OFFLINE',
      neverSent
        ? `Paydesk is offline: the ${noun} was not sent and nothing was queued. ${apiError.message} ${safe}`
        : `The connection dropped before the service confirmed the ${noun}, so its outcome is not known yet. ${safe}`
    )
  }
  if (neverSent && state === 'prepared') {
    return new AppError(apiError.code, `${apiError.message} The ${noun} was not sent.`, extraOf(apiError))
  }
  return new AppError(
    apiError.code,
    `${apiError.message} The outcome of the ${noun} is not known yet. ${safe}`,
    extraOf(apiError)
  )
}

function extraOf(apiError: ApiError) {
  return {
    ...(apiError.serviceCode !== undefined && { serviceCode: apiError.serviceCode }),
    ...(apiError.httpStatus !== undefined && { httpStatus: apiError.httpStatus })
  }
}
