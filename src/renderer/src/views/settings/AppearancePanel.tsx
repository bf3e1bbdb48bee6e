import { useState, type ReactNode } from 'react'
import type { Appearance, ThemeChoice, TimeZoneChoice } from '../../../../shared/appearance'
import { formatClock } from '../../format/time'
import { useAppearance, useChooseAppearance } from '../../data/appearance'

const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone

interface Choice<V extends string> {
  value: V
  label: string
  hint?: string
}

const THEMES: Choice<ThemeChoice>[] = [
  { value: 'system', label: 'System', hint: 'follows your operating system, also when it changes' },
  { value: 'light', label: 'Light', hint: '' },
  { value: 'dark', label: 'Dark', hint: '' }
]

const ZONES: Choice<TimeZoneChoice>[] = [
  { value: 'local', label: `Local time (${LOCAL_ZONE})` },
  { value: 'utc', label: 'UTC' }
]

/** Settings → Appearance: the theme and the zone every time is shown in. Each choice is saved at once, in main. */
export function AppearancePanel() {
  const kept = useAppearance()
  const choosing = useChooseAppearance()
  // The radio answers the click at once: the cache tells its observers a moment later, and React puts a controlled
  // radio back the moment the click's handler ends. What main keeps (or gives back on a refusal) follows the query.
  const [picked, setPicked] = useState<Appearance | null>(null)
  const appearance = picked ?? kept
  const [failed, setFailed] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)

  const change = async (next: Appearance, said: string) => {
    setPicked(next)
    setSaved(null)
    const error = await choosing.mutateAsync(next)
    setPicked(null)
    setFailed(error ? `Not saved: ${error.message}` : null)
    if (!error) setSaved(said)
  }

  return (
    <div className="panel form appearance" aria-labelledby="appearance-title">
      <h2 id="appearance-title">Appearance</h2>
      <Choices
        legend="Theme"
        name="theme"
        options={THEMES}
        checked={appearance.theme}
        pick={(t) => void change({ ...appearance, theme: t.value }, `Theme: ${t.label}.`)}
      />
      <Choices
        legend="Show times in"
        name="time-zone"
        options={ZONES}
        checked={appearance.timeZone}
        pick={(z) => void change({ ...appearance, timeZone: z.value }, `Times are shown in ${z.label}.`)}
      >
        <p className="muted" data-testid="time-sample">
          The time now reads {formatClock(new Date().toISOString())}.
        </p>
      </Choices>
      {failed && (
        <p className="result result-bad" role="alert">
          {failed}
        </p>
      )}
      <p className="visually-hidden" role="status">
        {saved}
      </p>
    </div>
  )
}

/** One setting's radio buttons, each saved as soon as it is picked. */
function Choices<V extends string>(props: {
  legend: string
  name: string
  options: Choice<V>[]
  checked: V
  pick(choice: Choice<V>): void
  children?: ReactNode
}) {
  return (
    <fieldset className="plain">
      <legend>{props.legend}</legend>
      {props.options.map((o) => (
        <label className="check" key={o.value}>
          <input
            type="radio"
            name={props.name}
            value={o.value}
            checked={props.checked === o.value}
            onChange={() => props.pick(o)}
          />
          <span>
            {o.label}
            {o.hint && <span className="muted"> — {o.hint}</span>}
          </span>
        </label>
      ))}
      {props.children}
    </fieldset>
  )
}
