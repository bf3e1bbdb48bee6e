/** "Transaction:019541a2-…-0005" → "Transaction:0195…0005": enough to recognise, the full id stays on hover/copy. */
export function shortenId(id: string, keep = 4): string {
  const colon = id.indexOf(':')
  const prefix = colon >= 0 ? id.slice(0, colon + 1) : ''
  const rest = colon >= 0 ? id.slice(colon + 1) : id
  if (rest.length <= keep * 2 + 1) return id
  return `${prefix}${rest.slice(0, keep)}…${rest.slice(-keep)}`
}
