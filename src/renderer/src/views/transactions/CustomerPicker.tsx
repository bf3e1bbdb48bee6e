import { useId, useState } from 'react'
import { useChannelQuery } from '../../data/channel-query'

/**
 * A customer by name, platform id or id: typing searches the cached customers (customers.query) and offers them; choosing
 * one sets its id. A typed id that is not offered is taken as it is (the customer may not be synced yet).
 */
export function CustomerPicker({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const listId = useId()
  const [text, setText] = useState(value)
  const [seen, setSeen] = useState(value)
  if (value !== seen) {
    // Cleared from its chip, or restored: the box follows.
    setSeen(value)
    setText(value)
  }
  const search = text.trim()
  const { data } = useChannelQuery(
    'customers.query',
    { search, limit: 20 },
    { enabled: search.length > 0 && search !== value }
  )
  const options = data?.rows ?? []
  return (
    <label className="field-inline">
      <span>Customer</span>
      <input
        type="search"
        list={listId}
        value={text}
        placeholder="Name or id"
        onChange={(e) => {
          const next = e.target.value
          setText(next)
          // A pick from the list, a pasted id, or an emptied box applies at once; free text only searches.
          if (next === '' || next.startsWith('Customer:')) onChange(next)
        }}
      />
      <datalist id={listId}>
        {options.map((c) => {
          const label = [c.fullName, (c as { platformCustomerId?: unknown }).platformCustomerId].filter(
            (v): v is string => typeof v === 'string'
          )
          return (
            <option key={c.id} value={c.id}>
              {label.join(' · ') || c.id}
            </option>
          )
        })}
      </datalist>
    </label>
  )
}
