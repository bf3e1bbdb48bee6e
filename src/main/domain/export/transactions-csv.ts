import { stringify } from 'csv-stringify/sync'
import type { Transaction } from '../../../shared/api'
import { KNOWN_DECIMALS, minorUnitsToDecimalString } from '../../../shared/format/money'
import type { Names } from '../../../shared/labels'

/**
 * Transactions as CSV for an accountant: RFC 4180 (CRLF records, quotes only where needed, doubled inside), UTF-8,
 * one header row, one row per transaction. Quoting is csv-stringify's; this module only decides the cells.
 *
 * - Amounts are exact decimal strings made from the integer minor units with the currency's decimals (digit
 *   arithmetic, never floats), each with its currency code in a column of its own. A currency whose decimals neither
 *   the service nor Paydesk knows is written as "<minor units> minor units" rather than guessed.
 * - Times are ISO 8601 in UTC ("2026-11-24T08:00:00.000Z").
 * - Formula injection: a text cell that begins with =, +, -, @ (or a tab or carriage return, which some spreadsheets
 *   also trim and then evaluate) is prefixed with a single quote, so a spreadsheet shows it as text. Amount, fee and
 *   rate cells are exempt only when they are plain numbers (an optional minus, digits, an optional fraction): a
 *   negative amount then stays a number a spreadsheet can sum, and cannot be a formula.
 */

export const TRANSACTION_CSV_COLUMNS = [
  'id',
  'created_at_utc',
  'updated_at_utc',
  'settled_at_utc',
  'status',
  'type',
  'sent_amount',
  'sent_currency',
  'received_amount',
  'received_currency',
  'fees',
  'fees_currency',
  'exchange_rate',
  'customer_id',
  'customer_name',
  'platform_customer_id',
  'source_account',
  'destination_account',
  'reference',
  'description',
  'failure_reason'
] as const
type Column = (typeof TRANSACTION_CSV_COLUMNS)[number]

const NUMERIC_COLUMNS: ReadonlySet<Column> = new Set(['sent_amount', 'received_amount', 'fees', 'exchange_rate'])
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/
/** = + - @ tab and carriage return, by char code: checked on every cell of every row, so no regex here. */
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d])

/** A cell a spreadsheet will not evaluate. */
export function neutralise(cell: string, column?: Column): string {
  if (!FORMULA_STARTS.has(cell.charCodeAt(0))) return cell
  if (column !== undefined && NUMERIC_COLUMNS.has(column) && PLAIN_NUMBER.test(cell)) return cell
  return `'${cell}`
}

type Loose = Record<string, unknown>
interface Money {
  amount?: unknown
  currency?: { code?: unknown; decimals?: unknown }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

function decimalsOf(currency: Money['currency']): number | undefined {
  const given = currency?.decimals
  if (typeof given === 'number' && Number.isInteger(given) && given >= 0 && given <= 18) return given
  return KNOWN_DECIMALS[text(currency?.code)]
}

/** "1234.56" for 123456 minor units of a 2-decimal currency; exact for any safe integer. */
export function decimalAmount(amount: unknown, decimals: number | undefined): string {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) return ''
  return decimals === undefined ? `${amount} minor units` : minorUnitsToDecimalString(amount, decimals)
}

/** Already what the service usually sends; anything else is parsed and rewritten in UTC. */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

function utc(v: unknown): string {
  if (typeof v === 'string' && ISO_UTC.test(v)) return v
  const t = typeof v === 'string' ? Date.parse(v) : NaN
  return Number.isNaN(t) ? text(v) : new Date(t).toISOString()
}

/** One transaction's cells, in column order; `names`: the labels the cache gave its page (names.ts). */
function transactionCells(t: Transaction, names: Names): Record<Column, string> {
  const r = t as Loose
  const sent = r['sentAmount'] as Money | undefined
  const received = r['receivedAmount'] as Money | undefined
  const source = r['source'] as Loose | undefined
  const destination = r['destination'] as Loose | undefined
  const fees = r['fees']
  const cells: Record<Column, string> = {
    id: text(t.id),
    created_at_utc: utc(r['createdAt']),
    updated_at_utc: utc(r['updatedAt']),
    settled_at_utc: utc(r['settledAt']),
    status: text(r['status']),
    type: text(r['type']),
    sent_amount: decimalAmount(sent?.amount, decimalsOf(sent?.currency)),
    sent_currency: text(sent?.currency?.code),
    received_amount: decimalAmount(received?.amount, decimalsOf(received?.currency)),
    received_currency: text(received?.currency?.code),
    // Fees are in minor units of the sending currency (spec 2.8).
    fees: fees === undefined ? '' : decimalAmount(fees, decimalsOf(sent?.currency)),
    fees_currency: fees === undefined ? '' : text(sent?.currency?.code),
    exchange_rate: typeof r['exchangeRate'] === 'number' ? String(r['exchangeRate']) : '',
    customer_id: text(r['customerId']),
    // The name as the cache knows it when the page is read (src/shared/labels.ts customerName); empty when unknown.
    customer_name: typeof r['customerId'] === 'string' ? (names[r['customerId']] ?? '') : '',
    platform_customer_id: text(r['platformCustomerId']),
    source_account: text(source?.['accountId'] ?? source?.['umaAddress']),
    destination_account: text(destination?.['accountId'] ?? destination?.['umaAddress']),
    reference: text((r['reconciliationInstructions'] as Loose | undefined)?.['reference']),
    description: text(r['description']),
    failure_reason: text(r['failureReason'])
  }
  for (const column of TRANSACTION_CSV_COLUMNS) cells[column] = neutralise(cells[column], column)
  return cells
}

/**
 * CSV text of some transactions; the first chunk of a file carries the header row (and the UTF-8 byte order mark).
 * `names`: labels of their customers by id, as a cache page carries them.
 */
export function transactionsCsv(transactions: readonly Transaction[], first: boolean, names: Names = {}): string {
  return stringify(
    transactions.map((t) => transactionCells(t, names)),
    {
      header: first,
      // A byte order mark: spreadsheets then read the file as UTF-8 rather than the system's legacy code page.
      bom: first,
      columns: [...TRANSACTION_CSV_COLUMNS],
      record_delimiter: '\r\n'
    }
  )
}
