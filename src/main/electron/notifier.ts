import { Notification } from 'electron'

import type { AppNotification } from '../domain/notifications/batch'

/**
 * Native notifications. Clicking one only opens the item (never approves): the window is focused and told where to go.
 */
export function createNativeNotifier(onClick: (n: AppNotification) => void) {
  // Keep references so notifications are not garbage-collected before they are clicked.
  const live = new Map<string, Notification>()
  return (n: AppNotification) => {
    if (!Notification.isSupported()) return
    const notification = new Notification({ title: n.title, body: n.body, silent: false })
    live.set(n.id, notification)
    notification.on('click', () => onClick(n))
    notification.on('close', () => live.delete(n.id))
    notification.show()
  }
}
