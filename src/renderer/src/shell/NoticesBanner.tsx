import { useChannelMutation } from '../data/channel-query'
import { applyNotices, useNotices } from '../data/notices'

/**
 * Damaged state Paydesk set aside, and data no profile points to: above every view, in words, with what was lost and
 * what to do, until the operator says they have read it.
 */
export function NoticesBanner() {
  const notices = useNotices()
  const dismissing = useChannelMutation('notices.dismiss')
  const failed = dismissing.error?.message ?? null
  if (notices.length === 0) return null
  const dismiss = async (id: string) => {
    const result = await dismissing.run({ id })
    if (result.ok) applyNotices(result.value)
  }
  return (
    <section className="notices" aria-label="Problems Paydesk found">
      {notices.map((n) => (
        <div key={n.id} className="notice" role="alert">
          <h2>{n.title}</h2>
          <p>{n.lost}</p>
          <p>
            <strong>What to do:</strong> {n.todo}
          </p>
          {n.setAsideAs && (
            <p className="muted">
              Kept as <code className="mono">{n.setAsideAs}</code>
            </p>
          )}
          <button onClick={() => void dismiss(n.id)}>I have read this</button>
        </div>
      ))}
      {failed && <p className="result result-bad">{failed}</p>}
    </section>
  )
}
