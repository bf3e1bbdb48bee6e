import { EmptyState } from '../../ui/view-states'

/**
 * Approvals come only from the approval gate the platform runs (docs/gate.md): the service asks through a signed
 * webhook answered within 5 s, and PENDING on a transaction means "quote created", never "awaiting approval". This
 * screen is rebuilt on the gate's stream; until then it says so instead of guessing from transactions.
 */
export function ApprovalsView() {
  return (
    <section className="page" aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      <EmptyState title="Approvals need the approval gate your platform runs.">
        Run it with <code>npm run gate</code> and add an operator with <code>npm run gate -- operator add NAME</code>{' '}
        (see docs/gate.md).
      </EmptyState>
    </section>
  )
}
