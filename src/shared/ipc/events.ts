import { z } from 'zod'
import { ProfileList } from '../profile'

/** Main → renderer events of the app shell. Domain events live beside their channels and are spread in contract.ts. */
export const appEvents = {
  'profiles.changed': ProfileList,
  /** A notification was clicked: the window should show this item. */
  navigate: z.object({ route: z.string(), id: z.string().optional() })
}
