import { queryOptions, useMutation, useQuery } from '@tanstack/react-query'
import { DEFAULT_APPEARANCE, type Appearance } from '../../../shared/appearance'
import type { IpcError } from '../../../shared/ipc/define'
import { paydesk } from '../bridge/paydesk'
import { setTimeZone } from '../format/time'
import { applyTheme, readHint } from '../styles/theme'
import { read } from './channel-query'
import { channelKey, queryClient } from './query-client'

const APPEARANCE_KEY = channelKey('appearance.get', null)

function storage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

/** The page follows the cached appearance: the theme on <html>, and the zone every time is worded in. */
function apply(appearance: Appearance): void {
  applyTheme(appearance, document.documentElement, storage())
  setTimeZone(appearance.timeZone)
}

/**
 * Which choice's answer may still change the page: only the latest. The start's load can answer after the operator has
 * already picked a radio button, and two quick choices can answer out of order; an older answer would undo the newer
 * choice on screen while main keeps it.
 */
let latest = 0

/** Main's saved choice (the truth, kept across restarts in both modes). */
const appearanceQuery = queryOptions<Appearance, IpcError>({
  queryKey: APPEARANCE_KEY,
  queryFn: async () => {
    // A choice made while main answers is newer than the answer: the page keeps showing it. A read does not count as a
    // call of its own, so a re-read (another profile made active re-reads every query) never hides a choice's answer.
    const seen = latest
    const saved = await read('appearance.get', null)
    return seen === latest ? saved : (queryClient.getQueryData<Appearance>(APPEARANCE_KEY) ?? saved)
  },
  staleTime: Infinity
})

const show = (appearance: Appearance): void => void queryClient.setQueryData(APPEARANCE_KEY, appearance)

/** The document follows the query: whatever puts an appearance in the cache (a choice, main's answer) shows it. */
function follow(): void {
  let shown: Appearance | undefined
  queryClient.getQueryCache().subscribe(({ query }) => {
    if (query.queryKey[0] !== APPEARANCE_KEY[0]) return
    const now = query.state.data as Appearance | undefined
    if (now && now !== shown) apply((shown = now))
  })
}

/** Shows a new choice and saves it in main; a refusal puts the previous one back. Main's failure, or null. */
export async function chooseAppearance(next: Appearance): Promise<IpcError | null> {
  // Shown at once (a radio button answers the click), and taken back if main refuses to keep it.
  const mine = ++latest
  const before = queryClient.getQueryData<Appearance>(APPEARANCE_KEY) ?? DEFAULT_APPEARANCE
  show(next)
  const result = await paydesk.invoke('appearance.set', next)
  if (mine !== latest) return result.ok ? null : result.error
  show(result.ok ? result.value : before)
  return result.ok ? null : result.error
}

/** Asks main for the saved choice; the page shows it unless a choice was made meanwhile (a failure keeps the hint). */
export const loadAppearance = (): Promise<void> =>
  queryClient.fetchQuery({ ...appearanceQuery, staleTime: 0 }).then(
    () => undefined,
    () => undefined
  )

/**
 * Run before the page's first render: the theme and zone this page last had are applied at once, so the start never
 * paints the other theme; main's saved choice follows.
 */
export function bootAppearance(): Promise<void> {
  follow()
  const hint = readHint(storage())
  if (hint) show(hint)
  return loadAppearance()
}

/** The appearance shown: main's, or the hint (or the defaults) until it answers. */
export const useAppearance = (): Appearance => useQuery(appearanceQuery).data ?? DEFAULT_APPEARANCE

/** The operator's choice in Settings: the mutation's answer is main's failure, or null. */
export const useChooseAppearance = () => useMutation({ mutationFn: chooseAppearance })
