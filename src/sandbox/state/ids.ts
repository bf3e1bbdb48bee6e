/**
 * Identifiers `<Resource>:<uuid>` whose uuid part sorts in creation order: 12 hex digits of the creation time (ms),
 * then a sequence number that only grows (persisted with the state), then a little randomness. Two ids created in the
 * same millisecond still sort by creation, which is what the list cursors rely on for ties.
 */
export class IdGenerator {
  constructor(private seq = 0) {}

  get sequence(): number {
    return this.seq
  }

  next(prefix: string, ms: number): string {
    this.seq += 1
    const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12)
    const s = this.seq.toString(16).padStart(15, '0').slice(-15)
    // Not a secret, only makes ids of separate sandboxes unlikely to collide.
    const r = Math.floor(Math.random() * 4096)
      .toString(16)
      .padStart(3, '0')
    return `${prefix}:${t.slice(0, 8)}-${t.slice(8, 12)}-7${s.slice(0, 3)}-8${s.slice(3, 6)}-${s.slice(6, 15)}${r}`
  }
}
