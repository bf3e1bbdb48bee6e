import { Fragment, useRef, type Ref } from 'react'
import type { ProfileEnvironment } from '../../../shared/profile'
import { useActiveProfile } from '../data/profiles'
import { DialogBox } from '../ui/Dialog'
import { useDialogFocus } from '../ui/dialog-focus'
import { shortcutGroups, useShortcutsHelp } from './shortcuts'

/** `?`: every shortcut, drawn from shortcuts.ts (the sections offered on this profile only). */
export function ShortcutsDialog() {
  const open = useShortcutsHelp((s) => s.open)
  const setOpen = useShortcutsHelp((s) => s.setOpen)
  const environment = useActiveProfile()?.environment ?? 'local'
  const dialog = useRef<HTMLDivElement>(null)
  useDialogFocus(dialog, open)
  if (!open) return null
  return (
    <div className="palette-backdrop" onClick={() => setOpen(false)}>
      <ShortcutsPanel ref={dialog} environment={environment} onClose={() => setOpen(false)} />
    </div>
  )
}

/** The list itself, drawn from the shortcuts table for a profile of this environment. */
export function ShortcutsPanel({
  ref,
  environment,
  onClose
}: {
  ref?: Ref<HTMLDivElement>
  environment: ProfileEnvironment
  onClose(): void
}) {
  return (
    <DialogBox ref={ref} className="palette shortcuts-dialog" labelledBy="shortcuts-title">
      <div className="shortcuts-head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button autoFocus onClick={onClose}>
          Close
        </button>
      </div>
      <div className="shortcuts-groups">
        {shortcutGroups(environment).map((group) => (
          <section key={group.heading} aria-labelledby={`shortcuts-${group.heading.replace(/\W+/g, '-')}`}>
            <h3 id={`shortcuts-${group.heading.replace(/\W+/g, '-')}`}>{group.heading}</h3>
            <dl>
              {group.shortcuts.map((s) => (
                <Fragment key={s.keys.join('+')}>
                  <dt>
                    {s.keys.map((k, i) => (
                      <Fragment key={k}>
                        {i > 0 && <span className="muted">{s.then ? ' then ' : ' + '}</span>}
                        <kbd>{k}</kbd>
                      </Fragment>
                    ))}
                  </dt>
                  <dd>{s.does}</dd>
                </Fragment>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <p className="palette-hint">
        On a Mac, <kbd>Cmd</kbd> works where <kbd>Ctrl</kbd> is shown. Shortcuts wait while you type in a field.
      </p>
    </DialogBox>
  )
}
