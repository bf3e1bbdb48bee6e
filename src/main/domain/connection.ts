import { z } from 'zod'
import { InternalAccount, readItems } from '../../shared/api'
import type { ConnectionReport } from '../../shared/ipc/channels/app'
import { AppError } from '../infra/app-error'
import { ApiClient } from '../infra/api-client'
import { ApiError } from '../infra/api-errors'
import type { StoredProfile } from './profiles'

const Probe = z.object({ data: z.array(z.unknown()) })

/**
 * "Test connection": one authenticated, read-only call (`GET /platform/internal-accounts`) with no retries and short
 * timeouts, reported as a sentence: success, wrong credentials, unreachable host, TLS problem or unexpected response.
 */
export async function testConnection(
  profile: Pick<StoredProfile, 'baseUrl' | 'tokenId'> & { id?: string | undefined },
  clientSecret: string | undefined,
  options: {
    now?: () => Date
    connectTimeoutMs?: number
    totalTimeoutMs?: number
    /** What to say when there is no secret to test with (a form asks for one typed; a saved profile for one stored). */
    noSecret?: string
  } = {}
): Promise<ConnectionReport> {
  const checkedAt = (options.now ?? (() => new Date()))().toISOString()
  const base = { ...(profile.id !== undefined && { profileId: profile.id }), checkedAt, baseUrl: profile.baseUrl }
  if (!clientSecret) {
    return {
      ...base,
      ok: false,
      code: 'UNAUTHORIZED',
      message:
        options.noSecret ??
        'No client secret is stored for this profile yet: add it in the profile settings, then test again.'
    }
  }
  let client: ApiClient
  try {
    client = new ApiClient({
      baseUrl: profile.baseUrl,
      tokenId: profile.tokenId,
      clientSecret,
      connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
      totalTimeoutMs: options.totalTimeoutMs ?? 10_000,
      maxRetries: 0
    })
  } catch (error) {
    const message = error instanceof AppError ? error.message : 'The base URL is not valid.'
    return { ...base, ok: false, code: 'INVALID_INPUT', message }
  }
  const started = performance.now()
  try {
    const answer = await client.get('platform/internal-accounts', Probe)
    const latencyMs = Math.round(performance.now() - started)
    // Counted as the balances card counts them: only the accounts Paydesk can read, with the rest named apart.
    const { items, rejected } = readItems(InternalAccount, answer.data)
    const n = items.length
    const unreadable = rejected.length
      ? ` (${rejected.length} more could not be read and ${rejected.length === 1 ? 'is' : 'are'} not shown)`
      : ''
    return {
      ...base,
      ok: true,
      latencyMs,
      message: `Connected to ${client.host} as token ${profile.tokenId} in ${latencyMs} ms; the service lists ${n} platform internal account${n === 1 ? '' : 's'}${unreadable}.`
    }
  } catch (error) {
    if (error instanceof ApiError) {
      let message = error.message
      if (error.code === 'UNAUTHORIZED') {
        message = `Wrong credentials: ${client.host} refused the API token id "${profile.tokenId}" or its client secret (HTTP 401).`
      } else if (error.code === 'FORBIDDEN') {
        message = `${client.host} accepted the credentials but refused access (HTTP 403${error.serviceCode ? `, ${error.serviceCode}` : ''}).`
      } else if (error.code === 'NOT_FOUND') {
        message = `${client.host} has no Payments API at ${profile.baseUrl} (HTTP 404): check the base URL and its version segment.`
      } else if (error.kind === 'http' && error.httpStatus !== undefined && error.code !== 'UNEXPECTED_RESPONSE') {
        message = `Unexpected response from ${client.host}: ${error.message}`
      }
      return {
        ...base,
        ok: false,
        code: error.code,
        message,
        ...(error.serviceCode !== undefined && { serviceCode: error.serviceCode }),
        ...(error.httpStatus !== undefined && { httpStatus: error.httpStatus })
      }
    }
    return { ...base, ok: false, code: 'INTERNAL', message: 'The connection test failed inside Paydesk.' }
  } finally {
    await client.close()
  }
}
