import { ListAnchors } from './list-anchors'
import { statementOf, type SqliteDatabase } from './sqlite'
import type { TextSearch } from './text-search'

/** Counts, search plans and named customers remembered each (filters, and text searches' candidates), the most recent kept. */
const KEPT = 64

/**
 * What one connection's transaction views found while the data did not change: per list, where some of its positions
 * are, the counts of filters and searches (every window of a list asks for its total again: a dense search's count
 * takes 0.1-0.3 s at a million rows), how each needle is searched and which customers' names hold it. All forgotten as
 * soon as the data changes (forgetIfChanged). Apart from transaction-queries.ts, which says what is read, because
 * this changes only with how long answers may be kept.
 */
export class QueryMemory {
  readonly anchors = new ListAnchors()
  private readonly counts = new Map<string, number>()
  private readonly searches = new Map<string, TextSearch>()
  private readonly named = new Map<string, string[]>()
  private dataVersion = ''

  constructor(private readonly db: SqliteDatabase) {}

  /**
   * Forgets what was found before the data last changed: data_version moves with other connections' commits, and
   * total_changes() with this one's (main's connection writes until the writer thread is up).
   */
  forgetIfChanged(): void {
    const version = String(
      statementOf(this.db, 'SELECT total_changes(), data_version FROM pragma_data_version').raw().get()
    )
    if (version === this.dataVersion) return
    this.anchors.clear()
    this.counts.clear()
    this.searches.clear()
    this.named.clear()
    this.dataVersion = version
  }

  /** A count found since the data last changed, or counted now and remembered. */
  count(key: string, count: () => number): number {
    return recent(this.counts, key, count)
  }

  /** How a needle is searched (text-search.ts planOf), planned once while the data does not change. */
  search(needle: string, plan: () => TextSearch): TextSearch {
    return recent(this.searches, needle, plan)
  }

  /** The customers whose names hold a needle (names.ts), found once while the data does not change. */
  customersNamed(needle: string, find: () => string[]): string[] {
    return recent(this.named, needle, find)
  }
}

/** A value remembered, or made now and remembered; the most recently used last, the oldest forgotten first. */
function recent<T>(kept: Map<string, T>, key: string, make: () => T): T {
  let value = kept.get(key)
  if (value === undefined) value = make()
  else kept.delete(key)
  kept.set(key, value)
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!)
  return value
}
