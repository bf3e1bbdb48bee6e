import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { openItem } from '../bridge/events'
import type { Names } from '../../../shared/labels'
import { useUi, type Toast } from '../stores/ui'
import { CopyButton } from '../ui/atoms'
import { knownNames, nameNotice } from './toast-names'

const VISIBLE = 3
const LIFETIME_MS = 10_000

/**
 * In-app notices (browser mode's notifications, and confirmations). Clicking one opens the item; it never acts on it.
 * They sit bottom-left, away from the detail pane's buttons, leave by themselves, and group when many arrive. They
 * name people and accounts as every screen does (toast-names.ts): an id in a notice's words is shown by its label, and
 * the one id a toast names is one copy-click away beside it (more than one: in the item the toast opens).
 */
export function Toasts() {
  const toasts = useUi((s) => s.toasts)
  const dismiss = useUi((s) => s.dismissToast)
  const client = useQueryClient()

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
        <ToastItem key={t.id} toast={t} names={knownNames(client, t.profileId)} dismiss={dismiss} />
      ))}
    </div>
  )
}

/** One notice, its ids named (toast-names.ts); clicking its words opens the item it is about. */
export function ToastItem({ toast, names, dismiss }: { toast: Toast; names: Names; dismiss: (id: string) => void }) {
  const named = nameNotice(toast, names)
  return (
    <div className="toast" role="status">
      <button
        className="toast-body"
        onClick={() => {
          if (toast.route) void openItem(toast.route, toast.targetId ?? null, toast.profileId)
          dismiss(toast.id)
        }}
      >
        <strong>{named.title}</strong>
        <span>{named.body}</span>
      </button>
      {named.ids.length === 1 && <CopyButton value={named.ids[0]!} />}
      <button className="toast-close" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  )
}
