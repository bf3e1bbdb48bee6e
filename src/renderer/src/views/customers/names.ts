import { useMemo } from 'react'
import { customerName } from '../../../../shared/labels'
import { useChannelQuery } from '../../data/channel-query'

export { customerName }

/** The customers a picker offers, by name: every view asks the same, so they share one call and one cached answer. */
export const CUSTOMER_CHOICES = { limit: 500, sort: { field: 'fullName', direction: 'asc' } } as const

/** The customers views pick from and name accounts by, and their names by id. */
export function useCustomerNames(options: { enabled?: boolean } = {}) {
  const customers = useChannelQuery('customers.query', CUSTOMER_CHOICES, options)
  const names = useMemo(
    () => new Map<string, string>((customers.data?.rows ?? []).map((c) => [c.id, customerName(c)])),
    [customers.data]
  )
  return { customers, names }
}
