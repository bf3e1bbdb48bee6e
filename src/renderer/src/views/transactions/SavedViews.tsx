import { useState } from 'react'
import type { SavedView, ViewFilters } from '../../../../shared/ipc/channels/workbench'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { WORKBENCH_DEFAULTS, type WorkbenchFilters } from './workbench-filters'

type Key = keyof WorkbenchFilters & string

/** The filters and sort a view keeps: only what differs from the defaults. */
function viewOf(filters: WorkbenchFilters): ViewFilters {
  return Object.fromEntries(
    (Object.keys(WORKBENCH_DEFAULTS) as Key[])
      .filter((k) => filters[k] !== WORKBENCH_DEFAULTS[k])
      .map((k) => [k, filters[k]])
  )
}

const sameView = (view: SavedView, filters: WorkbenchFilters) =>
  (Object.keys(WORKBENCH_DEFAULTS) as Key[]).every((k) => (view.filters[k] ?? WORKBENCH_DEFAULTS[k]) === filters[k])

/**
 * Saved views: the current filters and sort under a name, picked again later (every filter set as the view says) or
 * deleted. Kept per profile by main, so they outlive a reload and a restart.
 */
export function SavedViews({ filters, set }: { filters: WorkbenchFilters; set(key: Key, value: string): void }) {
  const { data } = useChannelQuery('views.list', null)
  const save = useChannelMutation('views.save', { invalidates: ['views.list'] })
  const remove = useChannelMutation('views.remove', { invalidates: ['views.list'] })
  const [name, setName] = useState('')
  const views = data?.views ?? []
  const current = views.find((v) => sameView(v, filters))

  const pick = (viewName: string) => {
    const view = views.find((v) => v.name === viewName)
    if (!view) return
    for (const key of Object.keys(WORKBENCH_DEFAULTS) as Key[]) set(key, view.filters[key] ?? WORKBENCH_DEFAULTS[key])
  }
  const onSave = async () => {
    const result = await save.run({ name, filters: viewOf(filters) })
    if (result.ok) {
      setName('')
      document.getElementById('save-view')?.hidePopover()
    }
  }

  return (
    <div className="saved-views">
      <select aria-label="Saved views" value={current?.name ?? ''} onChange={(e) => pick(e.target.value)}>
        <option value="">{views.length ? 'Saved views…' : 'No saved views'}</option>
        {views.map((v) => (
          <option key={v.name} value={v.name}>
            {v.name}
          </option>
        ))}
      </select>
      {current && (
        <button onClick={() => void remove.run({ name: current.name })} aria-label={`Delete view ${current.name}`}>
          Delete view
        </button>
      )}
      <button popoverTarget="save-view">Save view</button>
      <div id="save-view" className="filter-popover" popover="auto" role="dialog" aria-label="Save view">
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void onSave()
          }}
        >
          <label className="field-inline">
            <span>View name</span>
            <input value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
          </label>
          {save.error && (
            <span className="field-error" role="alert">
              {save.error.message}
            </span>
          )}
          <button type="submit" disabled={save.busy}>
            Save the current filters and sort
          </button>
        </form>
      </div>
    </div>
  )
}
