import { Command } from 'cmdk'
import { useEffect, useRef, useState } from 'react'
import { activeProfile, switchProfile, useProfileList } from '../data/profiles'
import { useUi } from '../stores/ui'
import { useCustomerActions } from '../views/customers/customer-actions'
import { commandGroups, MIN_RECORD_SEARCH_CHARS, type PaletteGroup, type PaletteRun } from './palette-entries'
import { useRecordSearch } from './palette-search'
import { useShortcutsHelp } from './shortcuts'

/**
 * The command palette's content, in a chunk of its own (cmdk and what it brings are most of its size): find a
 * customer, an account or a transaction by name or id fragment, run an action (send money, new customer, new quote,
 * switch profile) or jump to a section; it says so when nothing matches. cmdk keeps the listbox, the arrow keys and
 * Enter; what matches is decided in palette-entries.ts, so the order is the same on every run.
 */
/** Mounted while the palette is open: each opening starts from what was typed while it loaded (usually nothing). */
export function PaletteBody({ initialQuery }: { initialQuery: string }) {
  const [query, setQuery] = useState(initialQuery)
  const input = useRef<HTMLInputElement>(null)
  // Typing goes on where it was: the caret after the text typed while this loaded.
  useEffect(() => input.current?.setSelectionRange(initialQuery.length, initialQuery.length), [initialQuery])
  const { list } = useProfileList()
  const environment = activeProfile(list)?.environment ?? 'local'
  const commands = commandGroups(query, list, environment)
  const records = useRecordSearch(query)
  const groups: PaletteGroup[] = [...commands, ...records.groups]
  const run = useRun()
  const typed = query.trim()
  // A search that failed did not find nothing: its error is said instead.
  const nothing = typed !== '' && records.settled && groups.length === 0 && records.errors.length === 0

  return (
    <Command label="Search or jump to" shouldFilter={false} loop>
      <Command.Input
        ref={input}
        autoFocus
        placeholder="Search names and ids, or type a command…"
        value={query}
        onValueChange={setQuery}
      />
      <Command.List label="Results">
        {groups.map((group) => (
          <Command.Group key={group.heading} heading={group.heading}>
            {group.entries.map((entry) => (
              <Command.Item key={entry.value} value={entry.value} onSelect={() => run(entry.run)}>
                <span className="palette-label">{entry.label}</span>
                {entry.detail && <span className="palette-detail">{entry.detail}</span>}
                {entry.keys && <kbd>{entry.keys}</kbd>}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
      <p className="palette-status" role="status">
        {nothing ? (
          <>
            Nothing matches “{typed}”. Try part of a name or an id
            {[...typed].length < MIN_RECORD_SEARCH_CHARS ? ` (${MIN_RECORD_SEARCH_CHARS} characters or more)` : ''}, or
            an action such as “send money”.
          </>
        ) : typed !== '' && !records.settled ? (
          'Searching…'
        ) : null}
        {records.errors.map((e) => (
          <span key={e.what} className="palette-error">
            {' '}
            Could not search {e.what}: {e.error.message}
          </span>
        ))}
      </p>
      <p className="palette-hint">
        <kbd>↑</kbd>/<kbd>↓</kbd> choose · <kbd>Enter</kbd> open · <kbd>Esc</kbd> close · <kbd>?</kbd> all shortcuts
      </p>
    </Command>
  )
}

/** Runs what an entry does, closing the palette: each action opens the flow its section already has. */
function useRun() {
  const go = useUi((s) => s.go)
  const setOpen = useUi((s) => s.setPaletteOpen)
  const pushToast = useUi((s) => s.pushToast)
  const start = useCustomerActions((s) => s.start)
  const showShortcuts = useShortcutsHelp((s) => s.setOpen)
  return (run: PaletteRun) => {
    switch (run.kind) {
      case 'go':
        return go(run.route, run.focusId ?? null)
      case 'new-customer':
        start({ kind: 'new-customer' })
        return go('customers')
      case 'send-money':
        start({ kind: 'send-money', sourceId: null })
        return go('internal-accounts')
      case 'new-quote':
        return go('quotes')
      case 'shortcuts':
        setOpen(false)
        return showShortcuts(true)
      case 'switch-profile':
        setOpen(false)
        return void switchProfile(run.profileId).then((error) => {
          if (error) pushToast({ id: 'palette-switch', title: 'Could not switch profile', body: error.message })
        })
    }
  }
}
