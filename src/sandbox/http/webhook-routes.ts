/**
 * The platform configuration and webhook routes: `GET`/`PATCH /config` and `POST /sandbox/webhooks/test` as
 * published, plus two Local additions: `GET /sandbox/webhook-public-key` (what the service's dashboard shows) and,
 * with fault injection on, `GET /__deliveries` (the delivery log, for tests).
 */
import { PlatformConfigUpdateRequest } from '../../shared/api/platform-config'
import type { Engine } from '../engine/engine'
import { ApiError } from '../state/sandbox-errors'
import { errorReply, parseWith } from './http'
import { platformConfig, refuseFixedFields, updatePlatformConfig } from '../state/platform-config'
import type { Route } from './router'
import { none, rawBody, route } from './routes'
import type { WebhookDispatcher } from './webhooks/dispatcher'

/** The currencies the platform holds: what /config lists as supported. */
function platformCurrencies(engine: Engine): string[] {
  return [...new Set(engine.listPlatformInternalAccounts().map((a) => a.balance.currency.code))]
}

const testWebhook = (webhooks: WebhookDispatcher): Route => ({
  method: 'POST',
  template: '/sandbox/webhooks/test',
  body: 'none',
  handler: async () => {
    const { url, answer } = await webhooks.test()
    if (url === undefined) {
      return errorReply(
        new ApiError(400, 'WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured: set one with PATCH /config')
      )
    }
    if (answer.kind === 'unanswered') {
      return errorReply(
        new ApiError(400, 'WEBHOOK_DELIVERY_ERROR', `The test webhook to ${url} got no answer: ${answer.reason}`, {
          url
        })
      )
    }
    return { status: 200, body: { url, response_status: answer.status, response_body: answer.body } }
  }
})

export function webhookRoutes(engine: Engine, webhooks: WebhookDispatcher, testMode: boolean): Route[] {
  const e = engine
  const routes: Route[] = [
    route('GET', '/config', none, () => platformConfig(e.store, platformCurrencies(e))),
    route('PATCH', '/config', rawBody(false), (raw) => {
      refuseFixedFields(raw)
      const req = parseWith(PlatformConfigUpdateRequest, raw, 'platform configuration')
      const before = e.store.settings?.webhookEndpoint
      updatePlatformConfig(e.store, req, e.clock.now())
      e.changed()
      // The service sends a TEST event when the endpoint is set or changed (reference, test-webhook).
      if (req.webhookEndpoint !== before) webhooks.send('TEST', () => ({}))
      return platformConfig(e.store, platformCurrencies(e))
    }),
    testWebhook(webhooks),
    route('GET', '/sandbox/webhook-public-key', none, () => ({
      publicKeyPem: e.store.settings?.signingKey.publicKeyPem,
      algorithm: 'ECDSA P-256, SHA-256',
      header: 'X-Grid-Signature'
    }))
  ]
  if (testMode) {
    routes.push(route('GET', '/__deliveries', none, () => ({ data: webhooks.deliveries() }), { admin: true }))
  }
  return routes
}
