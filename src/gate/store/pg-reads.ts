/**
 * What the PostgreSQL store reads for one webhook before deciding it (GateStore.webhookFacts), in ONE statement: the
 * replay check, the rules' text, the customer's sealed receiver information and a matching pre-approval were four
 * round trips, each waiting for a pool connection and for a database process to be scheduled (docs/gate.md,
 * PostgreSQL). Each part is a scalar subquery, so a part not asked for (a NULL parameter) reads nothing.
 */
import type { PreApprovalRecord } from './rows'
import type { FactsQuery, PaymentMatch } from './store'

export const FACTS_SQL = `SELECT
  (SELECT json_build_object('status', w.status, 'body', w.body) FROM webhooks w WHERE w.id = $1) AS seen,
  (SELECT r.json FROM rules r WHERE r.id = 1) AS rules,
  (SELECT i.sealed FROM receiver_info i WHERE $2::text IS NOT NULL AND i.customer_id = $2) AS sealed,
  (SELECT to_json(p) FROM (${preApprovalQuery(3)}) p) AS pre`

/** The oldest unused, unexpired pre-approval matching parameters $n to $n+4 (customer, currency, amount, now, senders). */
export function preApprovalQuery(n: number): string {
  const [customer, currency, amount, now, senders] = [0, 1, 2, 3, 4].map((i) => `$${n + i}`)
  return `SELECT * FROM pre_approvals WHERE used_by IS NULL AND customer_id = ${customer}::text
    AND currency = ${currency}::text AND min_amount <= ${amount}::bigint AND max_amount >= ${amount}::bigint
    AND expires_at > ${now}::text AND (sender IS NULL OR sender = ANY(${senders}::text[]))
    ORDER BY created_at, id LIMIT 1`
}

export const matchValues = (m: PaymentMatch | null): unknown[] =>
  m ? [m.customerId, m.currency, m.amount, m.now, m.senders] : [null, null, null, null, null]

export const factsValues = (q: FactsQuery): unknown[] => [q.webhookId, q.customerId, ...matchValues(q.match)]

export interface FactsRow {
  seen: { status: number | null; body: string | null } | null
  rules: string | null
  sealed: Buffer | null
  /** to_json of the row: bigints as JSON numbers, text as text. */
  pre: PreApprovalRecord<number> | null
}
