/** Something that sorts by creation: `t` (createdAt, ms) then `id`. */
export interface Keyed {
  readonly t: number
  readonly id: string
}

function compareKey(a: Keyed, b: Keyed): number {
  if (a.t !== b.t) return a.t < b.t ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/**
 * Items kept sorted by (t, id), ascending. Lists page over these arrays with binary search, so a page costs
 * O(log n + page) instead of a scan and sort of every item.
 */
export class SortedIndex<T extends Keyed> {
  readonly items: T[] = []

  get size(): number {
    return this.items.length
  }

  /** First position whose key is >= `key`. */
  lowerBound(key: Keyed): number {
    let lo = 0
    let hi = this.items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareKey(this.items[mid] as T, key) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** First position whose key is > `key`. */
  upperBound(key: Keyed): number {
    let lo = 0
    let hi = this.items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareKey(this.items[mid] as T, key) <= 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** First position with t >= ms. */
  firstAtOrAfter(ms: number): number {
    return this.lowerBound({ t: ms, id: '' })
  }

  /** First position with t > ms. */
  firstAfter(ms: number): number {
    let lo = 0
    let hi = this.items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.items[mid] as T).t <= ms) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  insert(item: T): void {
    const n = this.items.length
    // Fast path: new items are almost always the newest.
    if (n === 0 || compareKey(this.items[n - 1] as T, item) < 0) {
      this.items.push(item)
      return
    }
    this.items.splice(this.lowerBound(item), 0, item)
  }

  remove(item: Keyed): boolean {
    const i = this.lowerBound(item)
    const found = this.items[i]
    if (found && found.id === item.id && found.t === item.t) {
      this.items.splice(i, 1)
      return true
    }
    return false
  }

  /** Bulk load, then sort once. */
  load(items: Iterable<T>): void {
    this.items.length = 0
    for (const it of items) this.items.push(it)
    this.items.sort(compareKey)
  }
}

/** A family of sorted indexes keyed by a value (customer id, status, ...). */
export class IndexMap<T extends Keyed> {
  private readonly map = new Map<string, SortedIndex<T>>()

  get(key: string): SortedIndex<T> | undefined {
    return this.map.get(key)
  }

  add(key: string | undefined, item: T): void {
    if (key === undefined) return
    let idx = this.map.get(key)
    if (!idx) {
      idx = new SortedIndex<T>()
      this.map.set(key, idx)
    }
    idx.insert(item)
  }

  remove(key: string | undefined, item: Keyed): void {
    if (key === undefined) return
    const idx = this.map.get(key)
    if (!idx) return
    idx.remove(item)
    if (idx.size === 0) this.map.delete(key)
  }

  clear(): void {
    this.map.clear()
  }
}
