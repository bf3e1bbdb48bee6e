import type { TransactionFilter, TransactionSort } from '../../../shared/ipc/channels/data'
import { candidatesInCreationOrder } from './creation-order'
import { ANCHOR_STEP, lastAtOrBefore, remember } from './list-anchors'
import { customersNamed } from './names'
import { QueryMemory } from './query-memory'
import { FINISHED_SCHEMA_INDEX, hasIndex, KEYS_BY_ROWID } from './schema'
import { statementOf, type SqliteDatabase } from './sqlite'
import {
  candidatesFrom,
  countCandidates,
  countPlanOf,
  planOf,
  textSearchOf,
  trigramsOf,
  windowPlanOf,
  type TextPlan,
  type TextSearch
} from './text-search'
import { floorOf, rowidEnd, rowidStretch, walkInStretches } from './text-walk'
import { afterOf, grouped, orderOf, reversedOf, sortKeysOf, upToOf, walkable, whereOf } from './transaction-rows'

/**
 * Every statement the transaction views read, over one connection. The cache's reader thread (read-thread.ts) runs
 * them, so main's event loop never waits on one (a dense search or a first deep window takes seconds at a million
 * rows). Documents come back as their JSON text: the caller parses only what it shows.
 */

/** A stretch's candidates listed at most (a few milliseconds read one by one), else left to FTS5 by a floor. */
const LISTED_CANDIDATES = 4_096

export class TransactionQueries {
  /** Migration 4's sort indexes and group counts are built (the writer thread does it after the upgrade). */
  private sortIndexes = false
  private rowidKeys = false
  private readonly memory: QueryMemory

  constructor(private readonly db: SqliteDatabase) {
    this.memory = new QueryMemory(db)
  }

  /**
   * A window of the filtered, sorted transactions and the count of all matches, both answered from indexes. A deep
   * window starts from the nearest remembered position before it (keyset paging through the sort's index) instead of
   * counting every row before it: rows 500,000-500,099 took 1.3-2.3 s by offset at a million rows.
   *
   * A window nearer the end than the start is read from the end: the same rows are the first ones of the reversed sort
   * (a total order, so exactly the reverse, ties included), reached from that end. Read forward, a window at row
   * 900,000 of a million walked 900,000 index entries (anchors are only remembered where a walk passed), and main's
   * reader thread spent 2-3 s of CPU in a scroll to the end, which the page's own tasks waited behind. The reversed
   * list keeps its own anchors: its sort, with its direction, is part of the list's key (the same list as the opposite
   * sort read forward, whose positions they are).
   *
   * Only a list without a text search is read from the end. Its position from the end comes from the total, so the
   * total must be exact; a search's is counted in the text index, which lags behind the rows while it is deferred
   * during a first sync (schema.ts, migration 3), and a reversed read would then show rows shifted from where a
   * forward one puts them.
   */
  window(filter: TransactionFilter, sort: TransactionSort, offset: number, limit: number) {
    this.memory.forgetIfChanged()
    const candidates = this.textCandidates(filter)
    // The total first: how many rows match decides how the window is found, and from which end.
    const total = this.countOf(filter, candidates)
    if (candidates || offset >= total || offset <= total - (offset + limit))
      return { docs: this.windowRows(filter, sort, offset, limit, candidates, total, false), total }
    const start = Math.max(0, total - (offset + limit))
    const docs = this.windowRows(filter, reversedOf(sort), start, total - offset - start, null, total, true)
    return { docs, total }
  }

  /**
   * The documents of rows offset..offset+limit of a list (see window), found from the top of its sort's order (and
   * given in the opposite order when `reversed`), as the text of one JSON array: main parses it in one go.
   *
   * Read as rows, each is its document, after its sort keys when the list remembers positions (a window from
   * ANCHOR_STEP on: the last row's are kept). A string per row is what a window's rows cost most, so a window read in
   * one statement, in its order, with no position to remember, comes as one string that SQLite joined (windowSql).
   */
  private windowRows(
    filter: TransactionFilter,
    sort: TransactionSort,
    offset: number,
    limit: number,
    candidates: { search: TextSearch; count: number } | null,
    total: number,
    reversed: boolean
  ): string {
    const where = this.windowWhere(filter, sort, candidates, total, offset + limit)
    const list = offset >= ANCHOR_STEP ? this.memory.anchors.of(JSON.stringify([filter, sort])) : null
    let from = 0
    let after: unknown[] | null = null
    if (list) {
      const i = lastAtOrBefore(list.positions, offset)
      if (i >= 0) [from, after] = [list.positions[i]!, list.keys[i]!]
      // Remember positions on the way, so the next window near here (scrolling on) starts close to its own rows.
      for (let next = from + ANCHOR_STEP; next <= offset; next += ANCHOR_STEP) {
        const keys = this.keysAt(where, sort, after, next - from - 1)
        if (!keys) break
        remember(list, next, keys)
        ;[from, after] = [next, keys]
      }
    }
    const keys = sortKeysOf(sort)
    const seek = after ? afterOf(sort, after) : { sql: '', params: [] }
    // A search's sorted candidates read their keys from the narrow index by rowid when it holds all they need
    // (schema.ts KEYS_BY_ROWID).
    const sorted = () =>
      candidates !== null && this.keysByRowid(filter, sort) ? `tx INDEXED BY ${KEYS_BY_ROWID}` : 'tx'
    const select = (
      where: { sql: string; params: unknown[] },
      bound: { sql: string; params: unknown[] },
      source = 'tx'
    ) =>
      statementOf(this.db, windowSql(sort, list !== null, source, and(and(where.sql, seek.sql), bound.sql)))
        .raw()
        .all(...where.params, ...seek.params, ...bound.params, limit, offset - from) as unknown[][]
    const joined = (where: { sql: string; params: unknown[] }, source: string): string | null =>
      reversed || list !== null
        ? null
        : (statementOf(this.db, joinedSql(windowSql(sort, false, source, and(where.sql, seek.sql))))
            .pluck()
            .get(...where.params, ...seek.params, limit, offset - from) as string)
    // A search sorted by creation time alone sorts the few candidates that can be in the window (creation-order.ts).
    const listed =
      candidates !== null && after === null && this.keysByRowid(filter, sort)
        ? candidatesInCreationOrder(this.db, candidates.search, sort.direction, offset + limit)
        : null
    if (candidates !== null && listed !== null) {
      const where = whereOf(filter, 'drive', undefined, { ...candidates.search, rowids: listed })
      return joined(where, sorted()) ?? arrayOf(select(where, NO_CONDITION, sorted()), reversed)
    }
    // A search whose plan walks the sort's index walks it in stretches (text-walk.ts), and may give up for a sort.
    const walks = candidates !== null && where.walk
    const estimate = walks ? this.rowEstimate() : 0
    const fromRowids =
      !walks || after || sort.field !== 'createdAt' || sort.direction !== 'desc'
        ? null
        : rowidStretch(this.db, candidates.search, offset + limit, estimate)
    const rows = walks
      ? walkInStretches({
          candidates: candidates.count,
          rows: estimate,
          need: offset + limit - from,
          wanted: Math.min(limit, total - offset),
          firstStretch: fromRowids,
          endAt: (budget) => this.keysAt(NO_CONDITION, sort, after, budget),
          ...(fromRowids !== null && { firstEndAt: (budget) => rowidEnd(this.db, sort, estimate, budget) }),
          floorOf: (end) => (this.schemaFinished() ? floorOf(this.db, sort, after, end) : null),
          select: (end, floor) =>
            select(
              floor === null
                ? where
                : this.windowWhere(filter, sort, this.floored(candidates, floor), total, offset + limit),
              end ? upToOf(sort, end) : NO_CONDITION
            ),
          // Sorting the candidates costs less than walking the whole index: the walk may stop and sort them.
          sortAll:
            countPlanOf(candidates.count, estimate) === 'drive'
              ? () => select(whereOf(filter, 'drive', undefined, candidates.search), NO_CONDITION, sorted())
              : null
        })
      : (joined(where, sorted()) ?? select(where, NO_CONDITION, sorted()))
    if (typeof rows === 'string') return rows
    if (list && rows.length) remember(list, offset + rows.length, rows[rows.length - 1]!.slice(0, keys.length))
    return arrayOf(rows, reversed)
  }

  /**
   * One page of the filtered, sorted transactions after `after` (the `last` of the previous page; null: from the
   * start). An export walks the whole set this way, one page in memory at a time.
   */
  page(filter: TransactionFilter, sort: TransactionSort, after: unknown[] | null, limit: number) {
    this.memory.forgetIfChanged()
    const candidates = this.textCandidates(filter)
    const matches = candidates ? 0 : this.countOf(filter, null)
    const where = this.windowWhere(filter, sort, candidates, matches, limit)
    const keys = sortKeysOf(sort)
    const seek = after ? afterOf(sort, after) : { sql: '', params: [] }
    const rows = statementOf(this.db, windowSql(sort, true, 'tx', and(where.sql, seek.sql)))
      .raw()
      .all(...where.params, ...seek.params, limit, 0) as unknown[][]
    return { docs: arrayOf(rows, false), last: rows.length ? rows[rows.length - 1]!.slice(0, keys.length) : null }
  }

  /** How many transactions match a filter, from the indexes. */
  count(filter: TransactionFilter): number {
    this.memory.forgetIfChanged()
    return this.countOf(filter, this.textCandidates(filter))
  }

  /** How many transactions there are, as the triggers keep it (schema 4), or counted until the writer has. */
  total(): number {
    const kept = statementOf(this.db, 'SELECT n FROM tx_count').pluck().get()
    return typeof kept === 'number' ? kept : Number(this.db.prepare('SELECT count(*) FROM tx').pluck().get())
  }

  /** The sort keys of the row `skip` rows after `after` (null: from the start), or null past the end. */
  private keysAt(
    where: { sql: string; params: unknown[] },
    sort: TransactionSort,
    after: unknown[] | null,
    skip: number
  ) {
    const seek = after ? afterOf(sort, after) : { sql: '', params: [] }
    const row = statementOf(
      this.db,
      `SELECT ${sortKeysOf(sort).join(', ')} FROM tx ${and(where.sql, seek.sql)} ${orderOf(sort)} LIMIT 1 OFFSET ?`
    )
      .raw()
      .get(...where.params, ...seek.params, skip) as unknown[] | undefined
    return row ?? null
  }

  /** A search's candidates from `floor` up: listed when there are few (TextSearch.rowids), else by the floor. */
  private floored(candidates: { search: TextSearch; count: number }, floor: number) {
    const rowids = candidatesFrom(this.db, candidates.search, floor, LISTED_CANDIDATES)
    return { ...candidates, search: { ...candidates.search, ...(rowids ? { rowids } : { floor }) } }
  }

  /**
   * The WHERE clause for the first `wanted` rows of a filter in a sort's order. A text search is met as text-search.ts
   * says. Otherwise, when many rows match and the sort's index carries every filtered column (schema 4), the index is
   * walked in order and the walk stops at the window's end (about wanted × rows / matches entries, none sorted, no row
   * read), instead of collecting and sorting every match from a filter's index: status COMPLETED newest first took
   * 0.75 s at a million rows that way.
   */
  private windowWhere(
    filter: TransactionFilter,
    sort: TransactionSort,
    candidates: { search: TextSearch; count: number } | null,
    matches: number,
    wanted: number
  ): { sql: string; params: unknown[]; walk?: boolean } {
    const rows = this.rowEstimate()
    if (candidates) {
      const plan = windowPlanOf(candidates.count, rows, wanted)
      const walk = plan === 'probe' && this.walkable(filter) ? sort.field : undefined
      return { ...whereOf(filter, plan, walk, candidates.search), walk: plan === 'probe' }
    }
    if (matches === 0 || !this.schemaFinished()) return whereOf(filter, 'drive')
    // Walked entries cost a row read each when the filter is not in the sort's index; so does each match sorted
    // (customer by amount: 2-5 s at a million rows), unless the filter's own index is already in the sort's order.
    const walk = walkable(filter)
      ? windowPlanOf(matches, rows, wanted) === 'probe'
      : (wanted * rows) / matches < matches && !orderedByFilter(filter, sort)
    return whereOf(filter, 'drive', walk ? sort.field : undefined)
  }

  /** Whether the filter can be read from the sort indexes, once the writer thread has built them (schema 4). */
  private walkable(filter: TransactionFilter): boolean {
    return walkable(filter) && this.schemaFinished()
  }

  /**
   * Whether the top of the whole list is a few page reads at any size: the triggers keep the total and every sort has
   * its index (schema 4 finished). Once so, it stays so.
   */
  topIsCheap(): boolean {
    return this.schemaFinished() && typeof statementOf(this.db, 'SELECT n FROM tx_count').pluck().get() === 'number'
  }

  /**
   * Whether a search's candidates can be sorted from KEYS_BY_ROWID alone: by creation time, with no other filter
   * (their columns are in the rows), once the index is built.
   */
  private keysByRowid(filter: TransactionFilter, sort: TransactionSort): boolean {
    const { search: _, ...rest } = filter
    if (sort.field !== 'createdAt' || whereOf(rest).sql !== '') return false
    this.rowidKeys ||= hasIndex(this.db, KEYS_BY_ROWID)
    return this.rowidKeys
  }

  private schemaFinished(): boolean {
    this.sortIndexes ||= hasIndex(this.db, FINISHED_SCHEMA_INDEX)
    return this.sortIndexes
  }

  /**
   * A filter's text search and how many rows contain it. A needle with dense trigrams is met by its rarer parts
   * (text-search.ts leadOf): when they have few candidates, those rows' own text is checked for the needle; else FTS5
   * checks the whole phrase on the rows they share (matchOf). Null when the filter has no text search.
   */
  private textCandidates(filter: TransactionFilter): { search: TextSearch; count: number } | null {
    const plain = textSearchOf(filter.search)
    if (!plain) return null
    // A needle of one trigram (the first search the list sends) has no rarer part to lead with: its phrase is its
    // query, and the index's directory is not read for it.
    const planned =
      trigramsOf(plain.needle).length < 2 ? plain : this.memory.search(plain.needle, () => planOf(this.db, plain))
    const customers = this.memory.customersNamed(plain.needle, () => customersNamed(this.db, plain.needle))
    const search = customers.length ? { ...planned, customers } : planned
    const count = this.memory.count(`text ${plain.needle}`, () => countCandidates(this.db, search))
    return { search, count }
  }

  /** About how many transactions there are, from the end of the rowid B-tree (a count(*) would walk an index). */
  private rowEstimate(): number {
    return Number(statementOf(this.db, 'SELECT max(rid) FROM tx').pluck().get() ?? 0)
  }

  private countOf(filter: TransactionFilter, candidates: { search: TextSearch; count: number } | null): number {
    return this.memory.count(`filter ${JSON.stringify(filter)}`, () => this.countAnew(filter, candidates))
  }

  private countAnew(filter: TransactionFilter, candidates: { search: TextSearch; count: number } | null): number {
    let plan: TextPlan = 'drive'
    if (candidates) {
      // A search alone is counted exactly by the text index; with other filters, their index may be walked instead.
      if (!whereOf({ ...filter, search: undefined }).sql) return candidates.count
      plan = countPlanOf(candidates.count, this.rowEstimate())
    }
    const where = whereOf(filter, plan, undefined, candidates?.search)
    if (!where.sql) return this.total()
    if (grouped(filter) && this.schemaFinished()) {
      // Status, type and currency alone: summed from the kept group counts (a few dozen rows), not counted.
      return Number(
        statementOf(this.db, `SELECT coalesce(sum(n), 0) FROM tx_groups ${where.sql}`)
          .pluck()
          .get(...where.params)
      )
    }
    return Number(
      statementOf(this.db, `SELECT count(*) FROM tx ${where.sql}`)
        .pluck()
        .get(...where.params)
    )
  }
}

const NO_CONDITION = { sql: '', params: [] as unknown[] }

/**
 * The statement that reads a window's rows: its rowids and sort keys first, ordered and paged from an index (`where`
 * over `source`), then the documents of just those rows, by rowid, in that order. The page of keys is the join's outer
 * loop, so its order is the answer's and nothing is sorted again: sorting the rows once read (a window's documents,
 * about 70 kB) cost more than reading them. `withKeys`: each row's sort keys before its document, else the document
 * alone. joinedSql feeds it to group_concat in this order: SQLite never flattens a subquery with an ORDER BY into an
 * aggregate query, so the aggregate reads its rows as the subquery orders them (and the tests check the order).
 */
function windowSql(sort: TransactionSort, withKeys: boolean, source: string, where: string): string {
  const keys = sortKeysOf(sort)
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC'
  const columns = withKeys ? [...keys.map((k) => `w.${k}`), 'doc'] : ['doc']
  return `SELECT ${columns.join(', ')} FROM (SELECT rid, ${keys.join(', ')} FROM ${source} ${where} ${orderOf(sort)} LIMIT ? OFFSET ?) AS w CROSS JOIN tx ON tx.rid = w.rid ORDER BY ${keys.map((k) => `w.${k} ${dir}`).join(', ')}`
}

/** A window's statement (windowSql) as one JSON array of its documents, joined in its order: '[]' for no row. */
const joinedSql = (window: string) => `SELECT '[' || coalesce(group_concat(doc, ','), '') || ']' FROM (${window})`

/** The documents of rows read one by one (each row's last column), as the text of one JSON array, in the given order. */
function arrayOf(rows: unknown[][], reversed: boolean): string {
  const docs = rows.map((r) => r[r.length - 1] as string)
  return `[${(reversed ? docs.reverse() : docs).join(',')}]`
}

/** A WHERE clause (or none) with one more condition (or none). */
function and(where: string, condition: string): string {
  const conditions = [where.replace(/^WHERE /, ''), condition].filter(Boolean)
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''
}

/** Whether a customer filter's index (customer, creation time) already gives the rows in the sort's order. */
function orderedByFilter(filter: TransactionFilter, sort: TransactionSort): boolean {
  return sort.field === 'createdAt' && Boolean(filter.customerId || filter.platformCustomerId)
}
