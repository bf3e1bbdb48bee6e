import { useEffect } from 'react'
import { openItem } from '../bridge/events'
import { useUi } from '../stores/ui'

const VISIBLE = 3
const LIFETIME_MS = 10_000

/**
 * In-app notices (browser mode's notifications, and confirmations). Clicking one opens the item; it never acts on it.
 * They sit bottom-left, away from the detail pane's buttons, leave by themselves, and group when many arrive.
 */
export function Toasts() {
  const toasts = useUi((s) => s.toasts)
  const dismiss = useUi((s) => s.dismissToast)

  useEffect(() => {
    if (toasts.length === 0) return
    const oldest = toasts[0]!
    const timer = setTimeout(() => dismiss(oldest.id), LIFETIME_MS)
    return () => clearTimeout(timer)
  }, [toasts, dismiss])

  const shown = toasts.slice(-VISIBLE)
  const hidden = toasts.length - shown.length
  return (
    <div className="toasts" aria-live="polite">
      {hidden > 0 && (
        <div className="toast toast-group" role="status">
          <span className="toast-body">
            <strong>
              {hidden} more notification{hidden === 1 ? '' : 's'}
            </strong>
          </span>
          <button
            className="toast-close"
            aria-label="Dismiss all notifications"
            onClick={() => toasts.forEach((t) => dismiss(t.id))}
          >
            ×
          </button>
        </div>
      )}
      {shown.map((t) => (
        <div className="toast" key={t.id} role="status">
          <button
            className="toast-body"
            onClick={() => {
              if (t.route) void openItem(t.route, t.targetId ?? null, t.profileId)
              dismiss(t.id)
            }}
          >
            <strong>{t.title}</strong>
            <span>{t.body}</span>
          </button>
          <button className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
