import { useEffect, useMemo, useRef, useState } from 'react'
import { FilterSelect } from '../../ui/FilterSelect'
import { KYC_STATUSES, type Customer } from '../../../../shared/api'
import type { CustomersQueryInput } from '../../../../shared/ipc/channels/data'
import { useUi } from '../../stores/ui'
import { StatusChip, Time } from '../../ui/atoms'
import { useListState } from '../../ui/list-state'
import { SearchBox } from '../../ui/SearchBox'
import { kycTone } from '../../ui/status'
import { WindowedList } from '../../ui/WindowedList'
import { idOf, type Column } from '../../ui/WindowedTable'
import { useWindowQuery } from '../../data/window-query'
import { EmptyState } from '../../ui/view-states'
import { CustomerDetail } from './CustomerDetail'
import { NewCustomerForm } from './NewCustomerForm'

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
  const focusId = useUi((s) => s.focusId)
  const list = useListState('customers', { search: '', kycStatus: '' })
  const [creating, setCreating] = useState(false)
  const detailRef = useRef<HTMLElement>(null)
  const filterRef = useRef<HTMLInputElement>(null)
  const { select } = list
  const selectedId = list.selectedId

  // Arriving with an id (a link from another view, a notification) opens that customer.
  useEffect(() => {
    if (focusId?.startsWith('Customer:')) select(focusId)
  }, [focusId, select])

  const input = useMemo<Omit<CustomersQueryInput, 'offset' | 'limit'>>(
    () => ({
      ...(list.filters.search.trim() && { search: list.filters.search.trim() }),
      ...(list.filters.kycStatus && { kycStatus: list.filters.kycStatus }),
      sort: { field: 'createdAt', direction: 'desc' }
    }),
    [list.filters]
  )
  const query = useWindowQuery('customers.query', input, list.initialScrollTop)
  const filtered = !!(list.filters.search || list.filters.kycStatus)

  return (
    <section className="page" aria-labelledby="customers-title">
      <div className="page-head">
        <h1 id="customers-title">Customers</h1>
        <button className="primary" onClick={() => setCreating(true)}>
          New customer
        </button>
      </div>
      <div className="list-detail">
        <div className="list-pane">
          <div className="filters" role="search">
            <SearchBox
              ref={filterRef}
              label="Search customers"
              placeholder="Name, platform id, UMA address…  ( / )"
              value={list.filters.search}
              onChange={(v) => list.setFilter('search', v)}
            />
            <FilterSelect
              label="KYC status"
              value={list.filters.kycStatus}
              any="Any KYC status"
              options={KYC_STATUSES}
              onChange={(v) => list.setFilter('kycStatus', v)}
            />
          </div>
          <WindowedList
            label="Customers"
            noun="customers"
            state={list}
            filterRef={filterRef}
            query={query}
            columns={columns}
            rowId={idOf}
            detailRef={detailRef}
            filtered={filtered}
            noMatch="No customer matches these filters."
            empty={
              <EmptyState
                title="No customers yet."
                action={
                  <button className="primary" onClick={() => setCreating(true)}>
                    New customer
                  </button>
                }
              >
                Customers are the people you send and receive money for. Register the first one to give them accounts.
              </EmptyState>
            }
          />
        </div>
        <aside
          className="detail-pane"
          aria-label={creating ? 'New customer' : 'Customer detail'}
          ref={detailRef}
          tabIndex={-1}
        >
          {creating ? (
            <NewCustomerForm
              onCancel={() => setCreating(false)}
              onCreated={(customer) => {
                setCreating(false)
                list.select(customer.id)
                query.reload()
              }}
            />
          ) : selectedId ? (
            <CustomerDetail id={selectedId} onClose={() => list.select(null)} />
          ) : (
            <p className="muted">
              Select a customer to see their details, accounts and recent payments. j/k move, Enter opens, Esc closes.
            </p>
          )}
        </aside>
      </div>
    </section>
  )
}
