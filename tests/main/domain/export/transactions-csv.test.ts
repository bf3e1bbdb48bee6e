import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import {
  decimalAmount,
  neutralise,
  TRANSACTION_CSV_COLUMNS,
  transactionsCsv
} from '../../../../src/main/domain/export/transactions-csv'
import type { Transaction } from '../../../../src/shared/api'

const outgoing = (extra: Record<string, unknown> = {}) =>
  ({
    id: 'Transaction:1',
    type: 'OUTGOING',
    status: 'COMPLETED',
    customerId: 'Customer:1',
    platformCustomerId: 'pc-1',
    source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1', currency: 'USD' },
    destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1', currency: 'MXN' },
    sentAmount: { amount: 123456, currency: { code: 'USD', decimals: 2 } },
    receivedAmount: { amount: 2100050, currency: { code: 'MXN', decimals: 2 } },
    fees: 5,
    exchangeRate: 17.0123,
    createdAt: '2026-11-24T09:30:00+01:00',
    updatedAt: '2026-11-24T08:31:00.000Z',
    ...extra
  }) as unknown as Transaction

const parsed = (csv: string) => parse(csv, { columns: true, bom: true }) as Record<string, string>[]

describe('transactions CSV', () => {
  it('is RFC 4180: a header row, CRLF records, quotes only where needed and doubled inside, UTF-8 with a BOM', () => {
    const csv = transactionsCsv([outgoing({ description: 'Rent, "March"\nsecond line — ü€' })], true)
    expect(csv.startsWith('\uFEFF' + TRANSACTION_CSV_COLUMNS.join(',') + '\r\n')).toBe(true)
    expect(csv).toContain('"Rent, ""March""\nsecond line — ü€"')
    expect(csv.endsWith('\r\n')).toBe(true)
    expect(parsed(csv)[0]!['description']).toBe('Rent, "March"\nsecond line — ü€')
    // Later chunks of the same file: rows only.
    expect(transactionsCsv([outgoing()], false).startsWith('Transaction:1,')).toBe(true)
  })

  it('writes a header even when nothing matches', () => {
    expect(parsed(transactionsCsv([], true))).toEqual([])
    expect(transactionsCsv([], true)).toBe('\uFEFF' + TRANSACTION_CSV_COLUMNS.join(',') + '\r\n')
  })

  it('has the columns an accountant needs, times in UTC and amounts as exact decimals with their currency', () => {
    const row = parsed(transactionsCsv([outgoing({ description: 'x', failureReason: 'QUOTE_EXPIRED' })], true))[0]!
    expect(row).toMatchObject({
      id: 'Transaction:1',
      created_at_utc: '2026-11-24T08:30:00.000Z',
      updated_at_utc: '2026-11-24T08:31:00.000Z',
      status: 'COMPLETED',
      type: 'OUTGOING',
      sent_amount: '1234.56',
      sent_currency: 'USD',
      received_amount: '21000.50',
      received_currency: 'MXN',
      fees: '0.05',
      fees_currency: 'USD',
      exchange_rate: '17.0123',
      customer_id: 'Customer:1',
      platform_customer_id: 'pc-1',
      source_account: 'InternalAccount:1',
      destination_account: 'ExternalAccount:1',
      description: 'x',
      failure_reason: 'QUOTE_EXPIRED'
    })
  })

  it('names the customer in customer_name as the cache labels them, and leaves it empty where no name is known', () => {
    const rows = parsed(
      transactionsCsv(
        [outgoing(), outgoing({ id: 'Transaction:2', customerId: 'Customer:2' }), outgoing({ customerId: undefined })],
        true,
        { 'Customer:1': 'Priya Raman', 'Customer:2': '=Jane "JJ" Smith, Jr.' }
      )
    )
    expect(rows.map((r) => [r['customer_id'], r['customer_name']])).toEqual([
      ['Customer:1', 'Priya Raman'],
      // Quoted where needed, and never a formula.
      ['Customer:2', `'=Jane "JJ" Smith, Jr.`],
      ['', '']
    ])
    expect(TRANSACTION_CSV_COLUMNS.indexOf('customer_name')).toBe(TRANSACTION_CSV_COLUMNS.indexOf('customer_id') + 1)
  })

  it('formats 0-, 2- and 8-decimal currencies exactly, beyond what a float could hold', () => {
    expect(decimalAmount(1500, 0)).toBe('1500')
    expect(decimalAmount(7, 2)).toBe('0.07')
    expect(decimalAmount(9007199254740991, 2)).toBe('90071992547409.91')
    expect(decimalAmount(1, 8)).toBe('0.00000001')
    expect(decimalAmount(9007199254740991, 8)).toBe('90071992.54740991')
    const rows = parsed(
      transactionsCsv(
        [
          outgoing({ sentAmount: { amount: 1500, currency: { code: 'JPY', decimals: 0 } }, fees: 3 }),
          outgoing({ sentAmount: { amount: 123456789, currency: { code: 'BTC', decimals: 8 } }, fees: 10 }),
          // No decimals from the service: Paydesk's own table, else the minor units said as such (never a guess).
          outgoing({ sentAmount: { amount: 250, currency: { code: 'EUR' } }, fees: undefined }),
          outgoing({ sentAmount: { amount: 250, currency: { code: 'ZZZ' } } })
        ],
        true
      )
    )
    expect(rows.map((r) => [r['sent_amount'], r['sent_currency'], r['fees']])).toEqual([
      ['1500', 'JPY', '3'],
      ['1.23456789', 'BTC', '0.00000010'],
      ['2.50', 'EUR', ''],
      ['250 minor units', 'ZZZ', '5 minor units']
    ])
  })

  it('neutralises cells a spreadsheet would run as a formula, but keeps a negative amount a number', () => {
    for (const evil of ['=HYPERLINK("http://x")', '+1+2', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
      expect(neutralise(evil, 'description')).toBe(`'${evil}`)
    expect(neutralise('plain', 'description')).toBe('plain')
    expect(neutralise('-12.50', 'sent_amount')).toBe('-12.50')
    expect(neutralise('-1+2', 'sent_amount')).toBe(`'-1+2`)
    const row = parsed(
      transactionsCsv(
        [
          outgoing({
            id: '=cmd|calc',
            description: '@SUM(1)',
            reconciliationInstructions: { reference: '+REF' },
            platformCustomerId: '-pc',
            sentAmount: { amount: -1250, currency: { code: 'USD', decimals: 2 } }
          })
        ],
        true
      )
    )[0]!
    expect(row).toMatchObject({
      id: "'=cmd|calc",
      description: "'@SUM(1)",
      reference: "'+REF",
      platform_customer_id: "'-pc",
      sent_amount: '-12.50'
    })
  })
})
