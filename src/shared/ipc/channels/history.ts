import { z } from 'zod'
import { ActionEntry } from '../../action-log'
import { ProfileId } from '../../profile'
import { channel, NoInput } from '../define'

/** The History view's read: the active profile's log of manual actions (src/shared/action-log.ts). */
export const historyChannels = {
  'history.actions': channel(
    NoInput,
    z.object({ profileId: ProfileId, entries: z.array(ActionEntry) }),
    "Every manual approve, reject and edit sent on the active profile, newest first, with its outcome and the operator's reason"
  )
}
