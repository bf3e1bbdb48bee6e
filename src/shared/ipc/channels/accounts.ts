import { z } from 'zod'
import { ExternalAccount, ExternalAccountId, ExternalAccountUpdateRequest } from '../../api'
import { ActionReason } from '../../action-log'
import { ProfileId } from '../../profile'
import { channel } from '../define'

/** Statuses an external account waits in (spec 3.1): Paydesk follows such an account live until it leaves them. */
export const UNSETTLED_EXTERNAL_ACCOUNT_STATUSES: readonly string[] = ['PENDING', 'UNDER_REVIEW']

/** What main knows of one external account it may be following. */
export const FollowedExternalAccount = z.object({
  profileId: ProfileId,
  account: ExternalAccount.nullable(),
  /** True while main polls the service for this account (its status has not settled yet). */
  following: z.boolean(),
  /** When main last read the account from the service, if it has. */
  checkedAt: z.string().nullable()
})
export type FollowedExternalAccount = z.infer<typeof FollowedExternalAccount>

const ExternalAccountUpdateInput = z.strictObject({
  id: ExternalAccountId,
  update: ExternalAccountUpdateRequest,
  /** Why, kept in Paydesk's history of manual actions (never sent to the service). */
  reason: ActionReason
})
type ExternalAccountUpdateInput = z.infer<typeof ExternalAccountUpdateInput>

/** External-account edits (spec 4.6) and following an account's status while it is under review. */
export const accountChannels = {
  'externalAccounts.update': channel(
    ExternalAccountUpdateInput,
    ExternalAccount,
    'Change an external account’s platformAccountId or beneficiary (a beneficiary change may start a re-review)'
  ),
  'externalAccounts.follow': channel(
    z.strictObject({ id: ExternalAccountId }),
    FollowedExternalAccount,
    'Read an external account from the service now, and keep reading it while its status has not settled'
  )
}
