import { useMemo, useRef, useState } from 'react'
import { useDialogFocus } from '../ui/dialog-focus'
import { ROUTES, useUi } from '../stores/ui'

/** Ctrl/Cmd+K: jump anywhere; lists the shortcuts too. */
export function CommandPalette() {
  const open = useUi((s) => s.paletteOpen)
  const setOpen = useUi((s) => s.setPaletteOpen)
  const go = useUi((s) => s.go)
  const [query, setQuery] = useState('')
  const matches = useMemo(
    () => ROUTES.filter((r) => r.label.toLowerCase().includes(query.trim().toLowerCase())),
    [query]
  )
  const dialog = useRef<HTMLDivElement>(null)
  useDialogFocus(dialog, open)
  if (!open) return null
  return (
    <div className="palette-backdrop" onClick={() => setOpen(false)}>
      <div
        ref={dialog}
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        onClick={(e) => e.stopPropagation()}
      >
        <input
          autoFocus
          aria-label="Jump to"
          placeholder="Jump to…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && matches[0]) go(matches[0].id)
            if (e.key === 'Escape') setOpen(false)
          }}
        />
        <ul>
          {matches.map((r) => (
            <li key={r.id}>
              <button onClick={() => go(r.id)}>
                {r.label} <kbd>g {r.key}</kbd>
              </button>
            </li>
          ))}
        </ul>
        <p className="palette-hint">
          <kbd>/</kbd> filter · <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>Esc</kbd> close
        </p>
      </div>
    </div>
  )
}
