import { Appearance, type ThemeChoice } from '../../../shared/appearance'

/** Where the page keeps the last appearance main gave it, to paint the next start in it before main answers. */
export const APPEARANCE_HINT_KEY = 'paydesk.appearance'

/**
 * The `data-theme` on <html> for a choice (tokens.css): a fixed theme names itself; System sets none, and the page
 * then follows the operating system's prefers-color-scheme live, through color-scheme and light-dark().
 */
export function themeAttribute(choice: ThemeChoice): 'light' | 'dark' | null {
  return choice === 'system' ? null : choice
}

/** The theme the page shows for a choice, given whether the system is dark right now. */
export function shownTheme(choice: ThemeChoice, systemDark: boolean): 'light' | 'dark' {
  return themeAttribute(choice) ?? (systemDark ? 'dark' : 'light')
}

/** The last appearance this page saw, or null when there is none or it no longer reads as one (never a guess). */
export function readHint(storage: Pick<Storage, 'getItem'> | undefined): Appearance | null {
  try {
    const text = storage?.getItem(APPEARANCE_HINT_KEY)
    if (!text) return null
    const parsed = Appearance.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    // Storage refused (a locked-down browser) or the text is not JSON: paint with the system theme.
    return null
  }
}

/** Puts the theme on <html> and keeps the choice for the next start's first paint. */
export function applyTheme(
  appearance: Appearance,
  root: { dataset: DOMStringMap },
  storage: Pick<Storage, 'setItem'> | undefined
): void {
  const attribute = themeAttribute(appearance.theme)
  if (attribute) root.dataset['theme'] = attribute
  else delete root.dataset['theme']
  try {
    storage?.setItem(APPEARANCE_HINT_KEY, JSON.stringify(appearance))
  } catch {
    // Not kept: the next start paints with the system theme until main answers; nothing else depends on it.
  }
}
