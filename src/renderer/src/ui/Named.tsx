import { useState } from 'react'
import { labelOf, type Names } from '../../../shared/labels'
import { Id } from './atoms'

/**
 * A customer or an account by name ("Priya Raman", "Platform · USD"), with its id one copy-click away (and on hover):
 * an operator reads names, and pastes ids into a ticket or the service's dashboard. Where the cache knows no name yet
 * the id is shown, shortened, as before.
 */
export function Named({ id, names }: { id: string | null | undefined; names: Names | undefined }) {
  if (!id) return <span className="muted">—</span>
  const name = names?.[id]
  if (name === undefined) return <Id value={id} />
  return (
    <span className="id named" data-paydesk-id={id}>
      <span className="name" title={id}>
        {labelOf(id, names)}
      </span>
      <CopyButton value={id} />
    </span>
  )
}

/** Copies a value, and says so for a moment (the tick belongs to the value copied: a table row reuses its element). */
function CopyButton({ value }: { value: string }) {
  const [copiedValue, setCopiedValue] = useState<string | null>(null)
  const copied = copiedValue === value
  return (
    <button
      className={copied ? 'copy copied' : 'copy'}
      aria-label={`Copy ${value}`}
      onClick={(e) => {
        e.stopPropagation()
        void navigator.clipboard?.writeText(value).then(() => {
          setCopiedValue(value)
          setTimeout(() => setCopiedValue((shown) => (shown === value ? null : shown)), 1200)
        })
      }}
    >
      {copied ? '✓' : null}
    </button>
  )
}
