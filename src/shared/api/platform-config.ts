import { z } from 'zod'

/**
 * The platform's configuration (reference: `GET`/`PATCH /config`). Paydesk reads it tolerantly; the Local sandbox
 * accepts only the part it can honour (the webhook endpoint).
 */
const PlatformConfig = z.looseObject({
  id: z.string().optional(),
  umaDomain: z.string().optional(),
  webhookEndpoint: z.string().optional(),
  supportedCurrencies: z.array(z.looseObject({ currencyCode: z.string() })).optional(),
  isRegulatedFinancialInstitution: z.boolean().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional()
})
export type PlatformConfig = z.infer<typeof PlatformConfig>

/**
 * Where webhooks go: an absolute http(s) URL with a host (the real service sends to HTTPS; a loopback receiver is
 * plain http). Checked by pattern: src/shared runs where no URL parser is assumed.
 */
const WebhookEndpoint = z
  .string({ error: 'Webhook URL must be a URL' })
  .regex(/^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i, {
    error: 'Webhook URL must be an absolute http:// or https:// URL with a host'
  })

/** PATCH /config body as the Local sandbox accepts it (the published request also has umaDomain and currencies). */
export const PlatformConfigUpdateRequest = z.strictObject({
  webhookEndpoint: WebhookEndpoint
})
export type PlatformConfigUpdateRequest = z.infer<typeof PlatformConfigUpdateRequest>

/**
 * What a platform answers to a webhook, read tolerantly. 200 to INCOMING_PAYMENT.PENDING: approval, with the requested
 * receiver fields; 403: rejection (`reason` optional); 422: more counterparty fields wanted (`requiredFields`).
 */
export const IncomingPaymentWebhookResponse = z.looseObject({
  receiverCustomerInfo: z.record(z.string(), z.unknown()).optional()
})
export type IncomingPaymentWebhookResponse = z.infer<typeof IncomingPaymentWebhookResponse>

export const IncomingPaymentWebhookRejection = z.looseObject({
  reason: z.string().optional(),
  message: z.string().optional()
})

export const IncomingPaymentWebhookUnprocessable = z.looseObject({
  requiredFields: z.array(z.string()).optional(),
  message: z.string().optional()
})

/** POST /sandbox/webhooks/test answer (reference TestWebhookResponse). */
const TestWebhookResponse = z.looseObject({
  url: z.string().optional(),
  response_status: z.number().int(),
  response_body: z.string().optional()
})
export type TestWebhookResponse = z.infer<typeof TestWebhookResponse>
