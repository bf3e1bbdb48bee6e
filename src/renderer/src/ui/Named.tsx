import { labelOf, type Names } from '../../../shared/labels'
import { CopyButton, Id } from './atoms'

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
