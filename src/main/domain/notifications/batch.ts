export interface AppNotification {
  id: string
  title: string
  body: string
  route: string
  targetId?: string
  /** The profile it is about (a background profile's notification switches to it when clicked). */
  profileId?: string
}

/**
 * One notification per event, grouped when many arrive together: events within `windowMs` of the first are collected;
 * up to `maxSingles` are shown one by one, more become a single summary that opens their section (design/ui.md).
 * The first event of a quiet period is shown at once, so a lone payment is never delayed.
 */
export function batchNotifications(
  show: (n: AppNotification) => void,
  options: { windowMs?: number; maxSingles?: number; setTimer?: typeof setTimeout } = {}
): (n: AppNotification) => void {
  const windowMs = options.windowMs ?? 1500
  const maxSingles = options.maxSingles ?? 3
  const setTimer = options.setTimer ?? setTimeout
  let shownInWindow = 0
  let held: AppNotification[] = []
  let open = false

  const flush = () => {
    open = false
    shownInWindow = 0
    const batch = held
    held = []
    if (batch.length === 0) return
    if (batch.length === 1) return show(batch[0]!)
    // Grouped per section and per profile, so a group's click opens the right profile.
    const byRoute = new Map<string, AppNotification[]>()
    for (const n of batch) {
      const key = `${n.route}\u0000${n.profileId ?? ''}`
      byRoute.set(key, [...(byRoute.get(key) ?? []), n])
    }
    for (const items of byRoute.values()) {
      const { route, profileId } = items[0]!
      if (items.length === 1) show(items[0]!)
      else
        show({
          id: `group:${items[0]!.id}`,
          title: `${items.length} more: ${items[0]!.title}`,
          body:
            items
              .map((i) => i.body)
              .slice(0, 3)
              .join('\n') + (items.length > 3 ? '\n…' : ''),
          route,
          ...(profileId !== undefined && { profileId })
        })
    }
  }

  return (n) => {
    if (!open) {
      open = true
      const timer = setTimer(flush, windowMs)
      ;(timer as { unref?: () => void }).unref?.()
    }
    if (shownInWindow < maxSingles) {
      shownInWindow += 1
      show(n)
    } else {
      held.push(n)
    }
  }
}
