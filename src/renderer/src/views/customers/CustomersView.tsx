import { useMemo, useState } from 'react'
import { ListFilterSelect } from '../../ui/FilterSelect'
import { KYC_STATUSES, type Customer } from '../../../../shared/api'
import type { CustomersQueryInput } from '../../../../shared/ipc/channels/data'
import { StatusChip, Time } from '../../ui/atoms'
import { kycTone } from '../../ui/status'
import { ListDetail, useListPage } from '../../ui/ListDetail'
import type { Column } from '../../ui/WindowedTable'
import { useWindowQuery } from '../../data/window-query'
import { EmptyState } from '../../ui/view-states'
import { CustomerDetail } from './CustomerDetail'
import { NewCustomerForm } from './NewCustomerForm'
import { useAskedAction } from './customer-actions'

const columns: Column<Customer>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (c) => (c.fullName ? c.fullName : <span className="muted">{c.platformCustomerId}</span>)
  },
  {
    key: 'kyc',
    header: 'KYC',
    width: '120px',
    render: (c) => <StatusChip value={c.kycStatus} tone={kycTone(c.kycStatus)} />
  },
  { key: 'platform', header: 'Platform id', render: (c) => <span className="mono">{c.platformCustomerId}</span> },
  { key: 'region', header: 'Region', width: '70px', render: (c) => c.region ?? <span className="muted">—</span> },
  { key: 'created', header: 'Created', width: '130px', render: (c) => <Time iso={c.createdAt} /> }
]

export function CustomersView() {
  const page = useListPage('customers', { search: '', kycStatus: '' }, 'Customer:')
  const { list } = page
  const [creating, setCreating] = useState(false)
  // The command palette's "New customer": the form opens, whether or not this screen was already on.
  useAskedAction('new-customer', () => setCreating(true))

  const input = useMemo<Omit<CustomersQueryInput, 'offset' | 'limit'>>(
    () => ({
      ...(list.filters.search.trim() && { search: list.filters.search.trim() }),
      ...(list.filters.kycStatus && { kycStatus: list.filters.kycStatus }),
      sort: { field: 'createdAt', direction: 'desc' }
    }),
    [list.filters]
  )
  const query = useWindowQuery('customers.query', input, list.initialScrollTop)
  const newCustomer = (
    <button className="primary" onClick={() => setCreating(true)}>
      New customer
    </button>
  )

  return (
    <section className="page" aria-labelledby="customers-title">
      <div className="page-head">
        <h1 id="customers-title">Customers</h1>
        {newCustomer}
      </div>
      <ListDetail
        page={page}
        query={query}
        label="Customers"
        searchLabel="Search customers"
        searchPlaceholder="Name, platform id, UMA address…  ( / )"
        filters={
          <ListFilterSelect
            list={list}
            name="kycStatus"
            label="KYC status"
            any="Any KYC status"
            options={KYC_STATUSES}
          />
        }
        noun="customers"
        columns={columns}
        filtered={!!(list.filters.search || list.filters.kycStatus)}
        noMatch="No customer matches these filters."
        empty={
          <EmptyState title="No customers yet." action={newCustomer}>
            Customers are the people you send and receive money for. Register the first one to give them accounts.
          </EmptyState>
        }
        detailLabel={creating ? 'New customer' : 'Customer detail'}
        detail={
          creating ? (
            <NewCustomerForm
              onCancel={() => setCreating(false)}
              onCreated={(customer) => {
                setCreating(false)
                list.select(customer.id)
                query.reload()
              }}
            />
          ) : list.selectedId ? (
            <CustomerDetail id={list.selectedId} onClose={() => list.select(null)} />
          ) : (
            <p className="muted">
              Select a customer to see their details, accounts and recent payments. j/k move, Enter opens, Esc closes.
            </p>
          )
        }
      />
    </section>
  )
}
