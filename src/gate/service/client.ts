/**
 * The few Payments API calls the gate makes (reference): the customer's KYC status when a rule needs it, and approve or
 * reject after a 202. Each call has a timeout inside the 5 s the service allows, and is never retried: an approve that
 * timed out may have been applied, and the service answers a second one 409 anyway.
 */
import { Customer } from '../../shared/api'
import { budget, type GateClock } from '../domain/clock'

interface ServiceCredentials {
  baseUrl: string
  tokenId: string
  clientSecret: string
}

export type CallResult = { ok: true; status: number } | { ok: false; status?: number; error: string }

export class ServiceClient {
  private readonly authorization: string

  constructor(
    private readonly creds: ServiceCredentials,
    private readonly clock: GateClock
  ) {
    this.authorization = `Basic ${Buffer.from(`${creds.tokenId}:${creds.clientSecret}`).toString('base64')}`
  }

  /** The customer's KYC status, or null when the service did not say within `timeoutMs`. */
  async kycStatus(customerId: string, timeoutMs: number): Promise<string | null> {
    const b = budget(this.clock, timeoutMs)
    try {
      const res = await fetch(`${this.creds.baseUrl}/customers/${encodeURIComponent(customerId)}`, {
        headers: { authorization: this.authorization, accept: 'application/json' },
        signal: b.signal
      })
      if (!res.ok) return null
      const read = Customer.safeParse(await res.json())
      return read.success ? (read.data.kycStatus ?? null) : null
    } catch {
      return null
    } finally {
      b.done()
    }
  }

  approve(transactionId: string, info: Record<string, unknown>, timeoutMs: number): Promise<CallResult> {
    const body = Object.keys(info).length > 0 ? { receiverCustomerInfo: info } : {}
    return this.post(`/transactions/${encodeURIComponent(transactionId)}/approve`, body, timeoutMs)
  }

  reject(transactionId: string, reason: string, timeoutMs: number): Promise<CallResult> {
    return this.post(`/transactions/${encodeURIComponent(transactionId)}/reject`, { reason }, timeoutMs)
  }

  private async post(path: string, body: unknown, timeoutMs: number): Promise<CallResult> {
    const b = budget(this.clock, timeoutMs)
    try {
      const res = await fetch(this.creds.baseUrl + path, {
        method: 'POST',
        headers: { authorization: this.authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: b.signal
      })
      await res.arrayBuffer()
      return res.ok ? { ok: true, status: res.status } : { ok: false, status: res.status, error: `HTTP ${res.status}` }
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError'
      return { ok: false, error: timedOut ? `no answer within ${timeoutMs} ms` : 'the service could not be reached' }
    } finally {
      b.done()
    }
  }
}
