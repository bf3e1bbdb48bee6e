import { useState } from 'react'
import type { Appearance, ThemeChoice, TimeZoneChoice } from '../../../../shared/appearance'
import { formatClock } from '../../format/time'
import { useAppearance } from '../../stores/appearance'

const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone

const THEMES: { value: ThemeChoice; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'follows your operating system, also when it changes' },
  { value: 'light', label: 'Light', hint: '' },
  { value: 'dark', label: 'Dark', hint: '' }
]

const ZONES: { value: TimeZoneChoice; label: string }[] = [
  { value: 'local', label: `Local time (${LOCAL_ZONE})` },
  { value: 'utc', label: 'UTC' }
]

/** Settings → Appearance: the theme and the zone every time is shown in. Each choice is saved at once, in main. */
export function AppearancePanel() {
  const appearance = useAppearance((s) => s.appearance)
  const choose = useAppearance((s) => s.choose)
  const [failed, setFailed] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)

  const change = async (next: Appearance, said: string) => {
    setSaved(null)
    const error = await choose(next)
    setFailed(error ? `Not saved: ${error.message}` : null)
    if (!error) setSaved(said)
  }

  return (
    <div className="panel form appearance" aria-labelledby="appearance-title">
      <h2 id="appearance-title">Appearance</h2>
      <fieldset className="plain">
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label className="check" key={t.value}>
            <input
              type="radio"
              name="theme"
              value={t.value}
              checked={appearance.theme === t.value}
              onChange={() => void change({ ...appearance, theme: t.value }, `Theme: ${t.label}.`)}
            />
            <span>
              {t.label}
              {t.hint && <span className="muted"> — {t.hint}</span>}
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="plain">
        <legend>Show times in</legend>
        {ZONES.map((z) => (
          <label className="check" key={z.value}>
            <input
              type="radio"
              name="time-zone"
              value={z.value}
              checked={appearance.timeZone === z.value}
              onChange={() => void change({ ...appearance, timeZone: z.value }, `Times are shown in ${z.label}.`)}
            />
            <span>{z.label}</span>
          </label>
        ))}
        <p className="muted" data-testid="time-sample">
          The time now reads {formatClock(new Date().toISOString())}.
        </p>
      </fieldset>
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
