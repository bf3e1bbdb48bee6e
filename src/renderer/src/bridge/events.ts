import { paydesk } from './paydesk'
import { useProfiles } from '../stores/profiles'
import { isRouteId, useUi } from '../stores/ui'

/**
 * The one place main-process events become store updates (zustand slices stay unaware of IPC).
 * Returns a function that disconnects everything.
 */
export function connectEvents(): () => void {
  const offs = [
    paydesk.on('profiles.changed', (list) => useProfiles.getState().apply(list)),
    paydesk.on('navigate', ({ route, id }) => {
      if (isRouteId(route)) useUi.getState().go(route, id ?? null)
    }),
    paydesk.on('notification', (n) => {
      const route = isRouteId(n.route) ? n.route : undefined
      useUi.getState().pushToast({ id: n.id, title: n.title, body: n.body, route, targetId: n.targetId })
      showWebNotification(n.title, n.body, () => route && useUi.getState().go(route, n.targetId ?? null))
    })
  ]
  const reportForeground = () =>
    void paydesk.invoke('app.reportForeground', { foreground: document.visibilityState === 'visible' && document.hasFocus() })
  window.addEventListener('focus', reportForeground)
  window.addEventListener('blur', reportForeground)
  document.addEventListener('visibilitychange', reportForeground)
  reportForeground()
  return () => {
    offs.forEach((off) => off())
    window.removeEventListener('focus', reportForeground)
    window.removeEventListener('blur', reportForeground)
    document.removeEventListener('visibilitychange', reportForeground)
  }
}

/** Browser mode: a web Notification when the page may show one; the in-app toast always appears too. */
function showWebNotification(title: string, body: string, onClick: () => void) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return
  const notification = new Notification(title, { body })
  notification.onclick = () => {
    window.focus()
    onClick()
  }
}
