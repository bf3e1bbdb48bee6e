import { useUi } from '../stores/ui'

/** In-app notices (browser mode's notifications, and confirmations). Clicking opens the item; it never acts on it. */
export function Toasts() {
  const toasts = useUi((s) => s.toasts)
  const dismiss = useUi((s) => s.dismissToast)
  const go = useUi((s) => s.go)
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div className="toast" key={t.id} role="status">
          <button
            className="toast-body"
            onClick={() => {
              if (t.route) go(t.route, t.targetId ?? null)
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
