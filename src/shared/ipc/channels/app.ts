import { z } from 'zod'
import { channel, IpcErrorCode, NoInput } from '../define'
import {
  ClientSecret,
  ConnectionDraft,
  ProfileCreateInput,
  ProfileId,
  ProfileList,
  ProfileUpdateInput,
  ProfileView
} from '../../profile'
import { NoticeList } from '../../notice'

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** `electron` in the desktop app, `browser` when the renderer is served by `npm run web`. */
  mode: z.enum(['electron', 'browser']),
  platform: z.string()
})
export type AppInfo = z.infer<typeof AppInfo>

export const ConnectionReport = z.object({
  /** The profile tested; none for a profile not saved yet. */
  profileId: ProfileId.optional(),
  ok: z.boolean(),
  checkedAt: z.string(),
  baseUrl: z.string(),
  latencyMs: z.number().nonnegative().optional(),
  /** A sentence for the operator: what worked, or exactly what failed. */
  message: z.string(),
  code: IpcErrorCode.optional(),
  serviceCode: z.string().optional(),
  httpStatus: z.number().int().optional()
})
export type ConnectionReport = z.infer<typeof ConnectionReport>

export const appChannels = {
  'app.info': channel(NoInput, AppInfo, 'Version and mode of this Paydesk'),
  'profiles.list': channel(NoInput, ProfileList, 'All profiles and which one is active'),
  'profiles.create': channel(ProfileCreateInput, ProfileView, 'Add a sandbox or production profile'),
  'profiles.update': channel(ProfileUpdateInput, ProfileView, 'Rename a profile or change where it points'),
  'profiles.remove': channel(
    z.strictObject({
      id: ProfileId,
      /** Its journal holds transfers of unknown outcome: the operator confirmed removing it anyway. */
      confirmUnknownTransfers: z.literal(true).optional()
    }),
    ProfileList,
    'Remove a profile with its secret, cache key and cache'
  ),
  'profiles.switch': channel(z.strictObject({ id: ProfileId }), ProfileList, 'Make a profile the active one'),
  'profiles.setSecret': channel(
    z.strictObject({ id: ProfileId, clientSecret: ClientSecret }),
    ProfileView,
    'Store or replace the client secret in the OS keychain'
  ),
  'profiles.clearSecret': channel(
    z.strictObject({ id: ProfileId }),
    ProfileView,
    'Remove the client secret from the OS keychain'
  ),
  'app.reportForeground': channel(
    z.strictObject({ foreground: z.boolean() }),
    z.null(),
    'The page says whether a person is looking at it (browser mode; Electron main knows by itself)'
  ),
  'notices.list': channel(NoInput, NoticeList, 'Damaged or orphaned state the operator has not dismissed yet'),
  'notices.dismiss': channel(z.strictObject({ id: z.string().min(1).max(300) }), NoticeList, 'The operator read it'),
  'connection.test': channel(
    z.strictObject({ profileId: ProfileId.optional() }),
    ConnectionReport,
    'Call the service with a profile and say what it answered'
  ),
  'connection.testDraft': channel(
    ConnectionDraft,
    ConnectionReport,
    'Call the service with the values of a profile form, before they are saved, and say what it answered'
  )
}
