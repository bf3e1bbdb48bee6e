/**
 * What closing the window does. While any profile has an approval gate, Paydesk keeps running in the tray (it follows
 * the gates' streams and tells of payments waiting for a person before their fallback); otherwise closing quits. Leaving the window
 * for the tray is told to the operator once, the first time, and remembered across launches.
 */

type CloseDecision =
  | { action: 'quit' }
  | { action: 'hide'; /** Tell the operator, once: Paydesk is still watching from the tray. */ announce: boolean }

interface CloseState {
  /** The operator chose Quit (tray, menu, Cmd+Q) or the OS is shutting down: always quit. */
  quitting: boolean
  anyGateFollowed: boolean
  /** A tray icon exists; without one a hidden window could not be found again. */
  trayAvailable: boolean
  alreadyAnnounced: boolean
}

export function decideClose(state: CloseState): CloseDecision {
  if (state.quitting || !state.anyGateFollowed || !state.trayAvailable) return { action: 'quit' }
  return { action: 'hide', announce: !state.alreadyAnnounced }
}

export const KEPT_IN_TRAY_NOTIFICATION = {
  id: 'desktop:kept-in-tray',
  title: 'Paydesk is still watching',
  body: 'Paydesk follows your approval gates from the tray, to tell you of payments waiting for you. Choose Quit in the tray menu to stop it.',
  route: 'approvals'
} as const
