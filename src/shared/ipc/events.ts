import { z } from 'zod'
import { ProfileList } from '../profile'
import { NoticeList } from '../notice'

/** Main → renderer events of the app shell. Domain events live beside their channels and are spread in contract.ts. */
export const appEvents = {
  'profiles.changed': ProfileList,
  /** Damaged or orphaned state to tell the operator about (or one was dismissed). */
  'notices.changed': NoticeList,
  /** A notification was clicked: the window should show this item. */
  navigate: z.object({ route: z.string(), id: z.string().optional(), profileId: z.string().optional() }),
  /**
   * Browser mode only: a notification for the page to raise (web Notification or in-app toast). The desktop app raises
   * native notifications in main instead.
   */
  notification: z.object({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    route: z.string(),
    targetId: z.string().optional(),
    /** The profile it is about: clicking it switches to that profile before opening the item. */
    profileId: z.string().optional()
  })
}
