/**
 * What the gate keeps, behind one interface so that the PostgreSQL implementation (next, docs/gate.md) can replace
 * SQLite without touching the domain. Every guarantee the domain relies on is the store's, not memory's:
 * - a webhook's whole outcome (its claim, its log entry, its decision or prompt, its answer) is written by ONE
 *   transaction (`settleWebhook`): one durable commit per webhook, and a crash before it leaves nothing, so a
 *   redelivery is decided afresh;
 * - a webhook id is settled once (a primary key), and its answer is kept for replays;
 * - a transaction is decided once (`settleWebhook`, `decide`), whichever of a rule, a pre-approval, an operator or a
 *   fallback comes first;
 * - a pre-approval is used once (taken in the transaction of the decision that uses it);
 * - the log's entries are committed in the same transaction as what they record, and chained in order, one writer at
 *   a time (PostgreSQL chains a settlement's entries right after its commit, so settlements never wait for the chain's
 *   lock), and `subscribe` hears an entry only once it is committed and chained.
 * All methods are async: SQLite answers at once, PostgreSQL over the network.
 */
import type { GateEvent, GateRules, LogKind, PreApproval, PreApprovalCreateRequest } from '../../shared/gate'

/** The answer a webhook got, kept to answer a replay identically. */
interface StoredAnswer {
  status: number
  body: unknown
}

/**
 * A webhook id seen before, and the answer it got. `answer` is null only for a claim written without its answer (by a
 * gate before one-commit settling, which then crashed): the domain answers those 409, deciding nothing.
 */
export interface SeenWebhook {
  answer: StoredAnswer | null
}

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

/** Everything one webhook leads to, written by `settleWebhook` in one transaction, or not at all. */
export interface WebhookSettlement {
  webhookId: string
  /** The `webhook` log entry: what arrived. */
  received: LogInput
  /** The answer sent to the service, kept for replays. */
  answer: StoredAnswer
  /** The payment's decision (a 200, 403 or 422), logged after `received`. */
  decision?: {
    record: DecisionInput
    /** Kept (and sent) instead of `answer` when the transaction was decided already: then nothing is decided. */
    ifAlreadyDecided: StoredAnswer
    /** The pre-approval the decision uses, taken for `record.transactionId` only if still unused and unexpired at `now`. */
    preApproval?: { id: string; now: string }
  }
  /** A 202's `prompt` log entry, logged after `received`, and the prompt kept open until its transaction is decided. */
  prompt?: { entry: LogInput; stored: StoredPrompt }
}

/**
 * A prompt waiting for an operator, kept in the store (not in one replica's memory) so that an operator's answer
 * reaching any replica finds it, and any replica applies its fallback if the one that answered 202 died. It is removed
 * by the decision of its transaction, in that decision's transaction.
 */
export interface StoredPrompt {
  transactionId: string
  webhookId: string
  /** When its fallback applies (ms since the epoch, on the gate's clock). */
  dueAt: number
  /** What answering it needs (the payment, the requested fields, the fallback), as JSON; never receiver information. */
  record: Record<string, unknown>
}

/** What deciding one webhook reads before anything is written (`webhookFacts`). */
export interface FactsQuery {
  webhookId: string
  /** The customer whose receiver information is wanted; null when the sender asked for none. */
  customerId: string | null
  /** The payment to find a pre-approval for; null when there is no payment to decide. */
  match: PaymentMatch | null
}

export type WebhookFacts =
  /** The id settled before, with its answer: nothing else is read or needed. */
  | { seen: SeenWebhook }
  | {
      seen: null
      rules: GateRules
      /** The customer's sealed receiver information row, when asked for and kept. */
      receiverInfo: Buffer | null
      /** The oldest matching unused pre-approval, as `findPreApproval` reads it. */
      preApproval: PreApproval | null
    }

export type Settled =
  /** Written: `answer` is what was kept (the settlement's, or its `ifAlreadyDecided`). */
  | { settled: true; answer: StoredAnswer }
  /** The webhook id was settled already (a replay, or another replica first): nothing written; its answer. */
  | { settled: false; reason: 'seen'; seen: SeenWebhook }
  /** The pre-approval was taken or expired meanwhile: nothing written; the domain decides again without it. */
  | { settled: false; reason: 'pre-approval-gone' }

export interface GateStore {
  /** A webhook id already settled, with its answer; null for one never seen (read only, nothing claimed). */
  seenWebhook(webhookId: string): Promise<SeenWebhook | null>
  /**
   * Everything a webhook's decision reads from the store, in one go: PostgreSQL answers it in one round trip instead of
   * four (replay check, rules, receiver information, pre-approval), each of which queued for a pool connection and a
   * busy database process on a loaded machine. Read only; what it returns may change before `settleWebhook`, which
   * re-checks every guarantee.
   */
  webhookFacts(query: FactsQuery): Promise<WebhookFacts>
  /**
   * Writes a webhook's outcome in ONE transaction (one durable commit): the claim of its id with its answer, its
   * `received` entry, then its decision (taking its pre-approval) or its prompt entry. When another delivery of the id
   * settled first (on any replica; PostgreSQL: the insert waits for that transaction, then finds its row) nothing is
   * written and that answer is returned. Events reach subscribers only after the commit; the caller sends its answer
   * only after this resolves, so an answer the service received is never lost by a crash.
   */
  settleWebhook(settlement: WebhookSettlement): Promise<Settled>
  /**
   * Records the final decision of a transaction with its log entry, atomically; null when the transaction was already
   * decided (by a rule, a pre-approval, an operator or a fallback, on this replica or another). Used after a 202; the
   * transaction's stored prompt is removed in the same transaction.
   */
  decide(decision: DecisionInput): Promise<GateEvent | null>
  /** Every prompt still waiting (its transaction undecided), oldest first. */
  openPrompts(): Promise<StoredPrompt[]>
  openPrompt(transactionId: string): Promise<StoredPrompt | null>
  /** Appends one entry in a transaction of its own. */
  append(entry: LogInput): Promise<GateEvent>
  /** Log entries after `seq`, oldest first. */
  readLog(afterSeq: number, limit: number): Promise<GateEvent[]>
  /** Walks the whole chain: ok when intact, else the first row that does not hold. */
  verifyLog(): Promise<{ ok: true; rows: number } | { ok: false; seq: number; problem: string }>

  getRules(): Promise<GateRules>
  putRules(rules: GateRules, actor: string): Promise<GateEvent>

  addPreApproval(p: PreApprovalCreateRequest, actor: string): Promise<{ preApproval: PreApproval; event: GateEvent }>
  listPreApprovals(): Promise<PreApproval[]>
  /**
   * The oldest unused, unexpired pre-approval that matches (read only). It is taken by `settleWebhook`, which refuses
   * it if another payment took it meanwhile: two payments never share one.
   */
  findPreApproval(match: PaymentMatch): Promise<PreApproval | null>

  /** Receiver information is stored sealed (AES-256-GCM by the domain); the store never sees it in clear. */
  putReceiverInfo(customerId: string, sealed: Buffer, actor: string): Promise<GateEvent>
  getReceiverInfo(customerId: string): Promise<{ sealed: Buffer; updatedBy: string; updatedAt: string } | null>

  addOperator(name: string, tokenHash: Buffer): Promise<OperatorRow>
  operators(): Promise<OperatorRow[]>

  /** Every entry appended from now on, after its transaction committed (PostgreSQL: through LISTEN/NOTIFY). */
  subscribe(listener: (event: GateEvent) => void): () => void

  close(): Promise<void>
}
