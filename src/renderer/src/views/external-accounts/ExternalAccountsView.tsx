import { useMemo, useState } from 'react'
import { ListFilterSelect, OwnerFilter } from '../../ui/FilterSelect'
import { ACCOUNT_TYPE_CURRENCY, KNOWN_EXTERNAL_ACCOUNT_STATUSES, type ExternalAccount } from '../../../../shared/api'
import type { AccountOwnerScope, ExternalAccountsQueryInput } from '../../../../shared/ipc/channels/data'
import { StatusChip } from '../../ui/atoms'
import { useChannelQuery } from '../../data/channel-query'
import { externalAccountTone } from '../../ui/status'
import { ListDetail, useListPage } from '../../ui/ListDetail'
import type { Column } from '../../ui/WindowedTable'
import { useWindowQuery, useWindowState } from '../../data/window-query'
import { ActionResult, EmptyState } from '../../ui/view-states'
import { AddExternalAccountForm } from './AddExternalAccountForm'
import { WALLET_CURRENCIES } from './account-form'
import { accountTypeName, holderName, lastDigits, shortTypeName } from './describe'
import { ExternalAccountDetail } from './ExternalAccountDetail'
import { askedOnOpen, useTakeAction } from '../customers/customer-actions'

const CURRENCIES = [...new Set([...Object.values(ACCOUNT_TYPE_CURRENCY), ...WALLET_CURRENCIES])].sort()

const columns: Column<ExternalAccount>[] = [
  {
    key: 'status',
    header: 'Status',
    width: '118px',
    render: (a) => <StatusChip value={a.status} tone={externalAccountTone(a.status)} />
  },
  {
    key: 'holder',
    header: 'Holder',
    render: (a) => (
      <>
        {holderName(a) ?? <span className="muted">—</span>}
        {!a.customerId && <span className="tag">platform</span>}
      </>
    )
  },
  {
    key: 'account',
    header: 'Account',
    render: (a) => (
      <>
        <span title={accountTypeName(a.accountInfo.accountType)}>{shortTypeName(a.accountInfo.accountType)}</span>{' '}
        <span className="mono">{lastDigits(a)}</span>
      </>
    )
  },
  { key: 'currency', header: 'Cur.', width: '56px', render: (a) => a.currency }
]

export function ExternalAccountsView() {
  const page = useListPage(
    'external-accounts',
    { scope: 'all', currency: '', status: '', search: '' },
    'ExternalAccount:'
  )
  const { list } = page
  const { select } = list
  /** The add form, open for a customer chosen beforehand (from their detail), or for the operator to choose. */
  // "Add external account" on a customer's detail: the section opens on the form, that customer chosen.
  const [adding, setAdding] = useState<{ customerId?: string } | null>(() => {
    const asked = askedOnOpen('add-external-account')
    return asked ? { customerId: asked.customerId } : null
  })
  useTakeAction('add-external-account')
  const [notice, setNotice] = useState<string | null>(null)

  const input = useMemo<Omit<ExternalAccountsQueryInput, 'offset' | 'limit'>>(
    () => ({
      scope: list.filters.scope as AccountOwnerScope,
      ...(list.filters.currency && { currency: list.filters.currency }),
      ...(list.filters.status && { status: list.filters.status }),
      ...(list.filters.search.trim() && { search: list.filters.search.trim() })
    }),
    [list.filters]
  )
  const query = useWindowQuery('externalAccounts.query', input, list.initialScrollTop)
  const shown = useWindowState(query)
  // The open account: from the window on screen, else looked up by id (it may be scrolled away or filtered out).
  const inWindow = shown.data?.rows.find((a) => a.id === list.selectedId)
  const lookup = useChannelQuery(
    'externalAccounts.query',
    { search: list.selectedId ?? '', limit: 1 },
    { enabled: !!list.selectedId && !inWindow }
  )
  const selected = inWindow ?? lookup.data?.rows.find((a) => a.id === list.selectedId)
  const startAdding = () => {
    setAdding({})
    setNotice(null)
  }

  return (
    <section className="page" aria-labelledby="ea-title">
      <div className="page-head">
        <h1 id="ea-title">External accounts</h1>
        <button className="primary" onClick={startAdding}>
          Add external account
        </button>
      </div>
      <ListDetail
        page={page}
        query={query}
        label="External accounts"
        searchLabel="Search external accounts"
        searchPlaceholder="Name, number, bank, id…  ( / )"
        filters={
          <>
            <OwnerFilter value={list.filters.scope} onChange={(owner) => list.setFilter('scope', owner)} />
            <ListFilterSelect list={list} name="currency" label="Currency" any="Any currency" options={CURRENCIES} />
            <ListFilterSelect
              list={list}
              name="status"
              label="Status"
              any="Any status"
              options={KNOWN_EXTERNAL_ACCOUNT_STATUSES}
            />
          </>
        }
        aboveList={notice && <ActionResult ok>{notice}</ActionResult>}
        noun="accounts"
        columns={columns}
        filtered={
          list.filters.scope !== 'all' || !!(list.filters.currency || list.filters.status || list.filters.search)
        }
        noMatch="No external account matches these filters."
        empty={
          <EmptyState
            title="No external accounts yet."
            action={
              <button className="primary" onClick={startAdding}>
                Add external account
              </button>
            }
          >
            External accounts are the bank accounts and wallets money is paid out to.
          </EmptyState>
        }
        detailLabel={adding ? 'Add external account' : 'External account detail'}
        detail={
          adding ? (
            <AddExternalAccountForm
              key={adding.customerId ?? 'new'}
              {...(adding.customerId ? { customerId: adding.customerId } : {})}
              onCancel={() => setAdding(null)}
              onCreated={(account) => {
                setAdding(null)
                setNotice(
                  `Added ${accountTypeName(account.accountInfo.accountType)} ${lastDigits(account)} (${account.status}).`
                )
                select(account.id)
                query.reload()
              }}
            />
          ) : selected ? (
            <ExternalAccountDetail
              key={selected.id}
              account={selected}
              onClose={() => select(null)}
              onRemoved={() => {
                setNotice(`Deleted ${accountTypeName(selected.accountInfo.accountType)} ${lastDigits(selected)}.`)
                select(null)
                query.reload()
              }}
            />
          ) : list.selectedId && (lookup.loading || shown.loading) ? (
            <div className="skeleton-rows" aria-busy="true" aria-label="Loading account" />
          ) : (
            <p className="muted">Select an account to see its details. j/k move, Enter opens, Esc closes.</p>
          )
        }
      />
    </section>
  )
}
