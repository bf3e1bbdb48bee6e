import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useUi } from '../stores/ui'
import { useDialogFocus } from '../ui/dialog-focus'
import { DialogBox } from '../ui/Dialog'

/** The palette's content (cmdk and the searches) loads apart from the app's first chunk, fetched once the app is idle. */
const loadBody = () => import('./PaletteBody')
const PaletteBody = lazy(() => loadBody().then((m) => ({ default: m.PaletteBody })))

/**
 * Ctrl/Cmd+K: the palette's dialog. Its content comes in its own chunk; should the operator open it before that chunk
 * is in, a plain box takes what they type and hands it over.
 */
export function CommandPalette() {
  const open = useUi((s) => s.paletteOpen)
  const setOpen = useUi((s) => s.setPaletteOpen)
  const dialog = useRef<HTMLDivElement>(null)
  useDialogFocus(dialog, open)
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1))
    idle(() => void loadBody().catch(() => undefined))
  }, [])
  if (!open) return null
  return (
    <div className="palette-backdrop" onClick={() => setOpen(false)}>
      <DialogBox ref={dialog} className="palette" label="Command palette">
        <Loading />
      </DialogBox>
    </div>
  )
}

function Loading() {
  const [typed, setTyped] = useState('')
  return (
    <Suspense
      fallback={
        <input
          autoFocus
          aria-label="Search or jump to"
          placeholder="Search names and ids, or type a command…"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      }
    >
      <PaletteBody initialQuery={typed} />
    </Suspense>
  )
}
