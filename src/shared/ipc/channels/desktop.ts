import { z } from 'zod'
import { channel, NoInput } from '../define'
import { CustomerId, ExternalAccountId, InternalAccountId, QuoteId, TransactionId } from '../../api/ids'
import { ProfileId } from '../../profile'
import { Appearance } from '../../appearance'

/**
 * Where updates come from. Off by default; the feed must be https (electron-updater's generic provider reads
 * latest.yml there). The downloaded installer's checksum and, on Windows and macOS, its code signature are verified by
 * electron-updater before anything is offered (docs/updates.md).
 */
const UpdateFeedUrl = z
  .string()
  .trim()
  .max(500, 'The feed address is at most 500 characters')
  .regex(/^https:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i, 'The update feed must be an https:// address without credentials')
export const UpdateSettings = z
  .strictObject({ enabled: z.boolean(), feedUrl: UpdateFeedUrl.nullable() })
  .refine((s) => !s.enabled || s.feedUrl !== null, {
    error: 'Set the update feed address before turning updates on',
    path: ['feedUrl']
  })
export type UpdateSettings = z.infer<typeof UpdateSettings>
export const DEFAULT_UPDATE_SETTINGS: UpdateSettings = { enabled: false, feedUrl: null }

export const UpdateStatus = z.object({
  state: z.enum(['off', 'unsupported', 'idle', 'checking', 'downloading', 'ready', 'error']),
  /** The version on offer (downloading or ready). */
  version: z.string().optional(),
  /** A sentence for the operator: what happened, or why a restart is refused right now. */
  message: z.string().optional(),
  checkedAt: z.string().optional()
})
export type UpdateStatus = z.infer<typeof UpdateStatus>

/** Any id the console shows with a copy button: what the right-click menu may offer to copy. */
export const CopyableId = z.union([TransactionId, CustomerId, ExternalAccountId, InternalAccountId, QuoteId])

/** A view a `paydesk://` link asked to open (it only ever opens a view): the route, the item, and its profile. */
export const LinkedView = z.object({
  route: z.enum(['transactions', 'approvals', 'customers']),
  id: z.string().min(1).max(300),
  profileId: ProfileId.optional()
})
export type LinkedView = z.infer<typeof LinkedView>

export const desktopChannels = {
  'desktop.takeLaunchLink': channel(
    NoInput,
    LinkedView.nullable(),
    'The view a link asked for before the page was listening (a launch by link); given once'
  ),
  'desktop.contextMenu': channel(
    z.strictObject({ copyId: CopyableId.nullable() }),
    z.null(),
    'Show the right-click menu (cut, copy, paste, select all, and "Copy id" over an id); the desktop app only'
  ),
  'appearance.get': channel(NoInput, Appearance, 'The theme and the time zone times are shown in'),
  'appearance.set': channel(
    Appearance,
    Appearance,
    'Choose the theme (system, light, dark) and the time zone (local, UTC)'
  ),
  'updates.settings.get': channel(NoInput, UpdateSettings, 'Whether updates are on, and their feed'),
  'updates.settings.set': channel(UpdateSettings, UpdateSettings, 'Turn updates on or off, or change their feed'),
  'updates.status': channel(NoInput, UpdateStatus, 'Where the update stands'),
  'updates.check': channel(NoInput, UpdateStatus, 'Look for an update now'),
  'updates.install': channel(
    NoInput,
    UpdateStatus,
    'The operator consents: restart into the downloaded update, unless money is in flight'
  )
}

export const desktopEvents = {
  'updates.status': UpdateStatus
}
