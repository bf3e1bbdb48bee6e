/**
 * The rows both stores keep, and what the GateStore interface hands out for them: one mapping, so the SQLite and the
 * PostgreSQL store cannot answer the same row differently. Their drivers differ in one way: pg returns a BIGINT as text
 * (it may not fit a JS number), SQLite an INTEGER as a number, so the integer columns take either (`Int`).
 */
import type { GateEvent, PreApproval } from '../../shared/gate'
import type { SeenWebhook, StoredPrompt } from './store'

type Int = number | string

export interface LogRecord<I extends Int = Int> {
  seq: I
  at: string
  kind: string
  actor: string
  data: string
  prev_hash: string
  hash: string
}

export interface PreApprovalRecord<I extends Int = Int> {
  id: string
  customer_id: string
  currency: string
  min_amount: I
  max_amount: I
  sender: string | null
  expires_at: string
  created_by: string
  created_at: string
  used_by: string | null
}

export interface PromptRecord {
  transaction_id: string
  webhook_id: string
  due_at: Int
  record: string
}

export const toEvent = (r: LogRecord): GateEvent => ({
  seq: Number(r.seq),
  at: r.at,
  kind: r.kind,
  actor: r.actor,
  data: JSON.parse(r.data) as Record<string, unknown>
})

export const toPreApproval = (r: PreApprovalRecord): PreApproval => ({
  id: r.id,
  customerId: r.customer_id,
  currency: r.currency,
  minAmount: Number(r.min_amount),
  maxAmount: Number(r.max_amount),
  sender: r.sender,
  expiresAt: r.expires_at,
  createdBy: r.created_by,
  createdAt: r.created_at,
  usedBy: r.used_by
})

export const toSeen = (row: { status: number | null; body: string | null }): SeenWebhook => ({
  answer: row.status === null ? null : { status: row.status, body: row.body === null ? null : JSON.parse(row.body) }
})

export const toStoredPrompt = (r: PromptRecord): StoredPrompt => ({
  transactionId: r.transaction_id,
  webhookId: r.webhook_id,
  dueAt: Number(r.due_at),
  record: JSON.parse(r.record) as Record<string, unknown>
})
