import { create } from 'zustand'
import { DEFAULT_APPEARANCE, type Appearance } from '../../../shared/appearance'
import type { IpcError } from '../../../shared/ipc/define'
import { paydesk } from '../bridge/paydesk'
import { setTimeZone } from '../format/time'
import { applyTheme, readHint } from '../styles/theme'

function storage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

function apply(appearance: Appearance): void {
  applyTheme(appearance, document.documentElement, storage())
  setTimeZone(appearance.timeZone)
}

interface AppearanceState {
  appearance: Appearance
  /** Main's answer arrived: until then the page shows the hint (or the defaults). */
  loaded: boolean
  error: IpcError | null
  load(): Promise<void>
  /** Shows a new choice and saves it in main; a refusal puts the previous one back. */
  choose(next: Appearance): Promise<IpcError | null>
}

/**
 * Which call's answer may still change the page: only the latest. The start's load can answer after the operator has
 * already picked a radio button, and two quick choices can answer out of order; an older answer would undo the newer
 * choice on screen while main keeps it.
 */
let latest = 0

export const useAppearance = create<AppearanceState>((set, get) => ({
  appearance: DEFAULT_APPEARANCE,
  loaded: false,
  error: null,
  load: async () => {
    const mine = ++latest
    const result = await paydesk.invoke('appearance.get', null)
    if (mine !== latest) return
    if (!result.ok) return set({ error: result.error })
    apply(result.value)
    set({ appearance: result.value, loaded: true, error: null })
  },
  choose: async (next) => {
    // Shown at once (a radio button answers the click), and taken back if main refuses to keep it.
    const mine = ++latest
    const before = get().appearance
    apply(next)
    set({ appearance: next })
    const result = await paydesk.invoke('appearance.set', next)
    if (mine !== latest) return result.ok ? null : result.error
    if (!result.ok) {
      apply(before)
      set({ appearance: before, error: result.error })
      return result.error
    }
    apply(result.value)
    set({ appearance: result.value, loaded: true, error: null })
    return null
  }
}))

/**
 * Run before the page's first render: the theme and zone this page last had are applied at once, so the start never
 * paints the other theme; main's saved choice (the truth, kept across restarts in both modes) follows.
 */
export function bootAppearance(): void {
  const hint = readHint(storage())
  if (hint) {
    apply(hint)
    useAppearance.setState({ appearance: hint })
  }
  void useAppearance.getState().load()
}
