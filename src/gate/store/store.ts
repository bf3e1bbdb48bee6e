/**
 * What the gate keeps, behind one interface so that the PostgreSQL implementation (next, docs/gate.md) can replace
 * SQLite without touching the domain. Every guarantee the domain relies on is the store's, not memory's:
 * - a webhook id is claimed once (`claimWebhook`), and its answer is kept for replays;
 * - a transaction is decided once (`decide`), whichever of a rule, an operator or a fallback comes first;
 * - a pre-approval is used once (`usePreApproval`);
 * - the log is appended in order with its hash chain, in the same transaction as what it records.
 * All methods are async: SQLite answers at once, PostgreSQL over the network.
 */
import type { GateEvent, GateRules, LogKind, PreApproval, PreApprovalCreateRequest } from '../../shared/gate'

/** The answer a webhook got, kept to answer a replay identically. */
export interface StoredAnswer {
  status: number
  body: unknown
}

export type Claim = { claimed: true } | { claimed: false; answer: StoredAnswer | null }

export interface LogInput {
  /** What happened: one of the log's known kinds, so a new one is added to the shared list on purpose. */
  kind: LogKind
  actor: string
  data: Record<string, unknown>
}

export interface DecisionInput {
  transactionId: string
  webhookId: string
  outcome: 'approved' | 'rejected' | 'unprocessable'
  actor: string
  reason: string
  /** More for the log entry (amount, currency, the requested field names); never receiver information. */
  details?: Record<string, unknown>
}

export interface OperatorRow {
  id: string
  name: string
  tokenHash: Buffer
}

export interface PaymentMatch {
  customerId: string
  currency: string
  amount: number
  senders: string[]
  now: string
}

export interface GateStore {
  /** First sight of a webhook id: claims it (and logs it). Later: the answer it got, or null while still deciding. */
  claimWebhook(webhookId: string, log: LogInput): Promise<Claim>
  saveAnswer(webhookId: string, answer: StoredAnswer): Promise<void>
  /**
   * Records the final decision of a transaction with its log entry, atomically; null when the transaction was already
   * decided (by a rule, a pre-approval, an operator or a fallback, on this replica or another).
   */
  decide(decision: DecisionInput): Promise<GateEvent | null>
  append(entry: LogInput): Promise<GateEvent>
  /** Log entries after `seq`, oldest first. */
  readLog(afterSeq: number, limit: number): Promise<GateEvent[]>
  /** Walks the whole chain: ok when intact, else the first row that does not hold. */
  verifyLog(): Promise<{ ok: true; rows: number } | { ok: false; seq: number; problem: string }>

  getRules(): Promise<GateRules>
  putRules(rules: GateRules, actor: string): Promise<GateEvent>

  addPreApproval(p: PreApprovalCreateRequest, actor: string): Promise<{ preApproval: PreApproval; event: GateEvent }>
  listPreApprovals(): Promise<PreApproval[]>
  /** Takes the oldest unused, unexpired pre-approval that matches, atomically: two payments never share one. */
  usePreApproval(match: PaymentMatch, transactionId: string): Promise<PreApproval | null>

  /** Receiver information is stored sealed (AES-256-GCM by the domain); the store never sees it in clear. */
  putReceiverInfo(customerId: string, sealed: Buffer, actor: string): Promise<GateEvent>
  getReceiverInfo(customerId: string): Promise<{ sealed: Buffer; updatedBy: string; updatedAt: string } | null>

  addOperator(name: string, tokenHash: Buffer): Promise<OperatorRow>
  operators(): Promise<OperatorRow[]>

  /** Every entry appended from now on, after its transaction committed (PostgreSQL: through LISTEN/NOTIFY). */
  subscribe(listener: (event: GateEvent) => void): () => void

  close(): Promise<void>
}
