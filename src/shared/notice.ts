import { z } from 'zod'

/**
 * What was damaged or left behind: each kind has its own sentence of what was lost and what to do. `damaged-file`:
 * any other file or folder of the data folder that was set aside (the cache, the app's settings, the notices, the lock).
 */
const NOTICE_KINDS = [
  'transfer-journal',
  /** Told by Paydesk before the approval gate (its rules were then kept on the desktop): still read in old notices. */
  'approval-rules',
  'profile-list',
  'orphaned-data',
  'damaged-file'
] as const

/**
 * Something the operator must hear about at once, kept until they dismiss it: damaged state that was set aside (never
 * deleted), or data no profile points to. Shown as a banner above every view.
 */
export const Notice = z.object({
  id: z.string(),
  kind: z.enum(NOTICE_KINDS),
  profileId: z.string().optional(),
  at: z.string(),
  title: z.string(),
  /** What Paydesk could not read, in the operator's terms. */
  lost: z.string(),
  /** What to do now. */
  todo: z.string(),
  /** Where the damaged file was kept. */
  setAsideAs: z.string().optional()
})
export type Notice = z.infer<typeof Notice>
export const NoticeList = z.array(Notice)
