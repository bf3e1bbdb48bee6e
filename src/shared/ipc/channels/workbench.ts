import { z } from 'zod'
import { ProfileId } from '../../profile'
import { channel, NoInput } from '../define'
import { SyncedAt, TransactionFilter } from './data'

/**
 * The transactions workbench's own channels: the totals of the filtered set, per currency, and the operator's saved
 * views (named filters and sort), kept per profile in main.
 */

/** One currency's share of a filtered set: how many transactions, and their amounts added up in minor units. */
export const CurrencyTotal = z.object({
  currency: z.string().max(10),
  count: z.number().int().min(0),
  /** null: the sum is past what a number holds exactly, so it is not shown rounded. */
  amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable()
})
export type CurrencyTotal = z.infer<typeof CurrencyTotal>

const TransactionTotals = z.object({ profileId: ProfileId, totals: z.array(CurrencyTotal), syncedAt: SyncedAt })

/** Longest name of a saved view, and how many a profile keeps. */
const MAX_VIEW_NAME = 60
export const MAX_SAVED_VIEWS = 50

/**
 * The workbench's filters and sort as the operator set them: text fields, each optional (a field left out is empty),
 * exactly what the workbench keeps in its list memory (workbench-filters.ts WORKBENCH_DEFAULTS).
 */
const Field = z.string().max(500).optional()
export const ViewFilters = z.strictObject({
  search: Field,
  status: Field,
  type: Field,
  customerId: Field,
  platformCustomerId: Field,
  senderAccountId: Field,
  receiverAccountId: Field,
  reference: Field,
  currency: Field,
  amountMin: Field,
  amountMax: Field,
  datePreset: Field,
  dateFrom: Field,
  dateTo: Field,
  sort: Field
})
export type ViewFilters = z.infer<typeof ViewFilters>

const ViewName = z
  .string()
  .trim()
  .min(1, { error: 'Give the view a name' })
  .max(MAX_VIEW_NAME, { error: `A view's name is at most ${MAX_VIEW_NAME} characters` })

export const SavedView = z.strictObject({ name: ViewName, filters: ViewFilters })
export type SavedView = z.infer<typeof SavedView>

export const SavedViews = z.object({ profileId: ProfileId, views: z.array(SavedView) })
export type SavedViews = z.infer<typeof SavedViews>

export const workbenchChannels = {
  'transactions.totals': channel(
    z.strictObject({ filter: TransactionFilter.default({}) }),
    TransactionTotals,
    'Per currency, the count and the sum of the amounts of every cached transaction a filter keeps'
  ),
  'views.list': channel(NoInput, SavedViews, "The active profile's saved transaction views, by name"),
  'views.save': channel(
    SavedView,
    SavedViews,
    'Save the current filters and sort under a name (a view of that name is replaced)'
  ),
  'views.remove': channel(z.strictObject({ name: ViewName }), SavedViews, 'Delete a saved view')
}
