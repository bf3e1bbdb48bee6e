import { useCallback, useMemo, useRef, useState } from 'react'
import { FilterSelect, OwnerFilter } from '../../ui/FilterSelect'
import type { InternalAccount } from '../../../../shared/api'
import { useListMemory, listMemory } from '../../stores/list-memory'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, Money, Time } from '../../ui/atoms'
import { useListKeys } from '../../ui/list-keys'
import { useCustomerNames } from '../customers/names'
import { askedOnOpen, useAskedAction } from '../customers/customer-actions'
import { useChannelQuery } from '../../data/channel-query'
import { EmptyState, Freshness, NeverSynced, SkeletonRows } from '../../ui/view-states'
import { InternalAccountDetail } from './InternalAccountDetail'
import { TransferJournal } from './TransferJournal'
import { DataTable, type TableColumn } from '../../ui/DataTable'
import { idOf } from '../../ui/WindowedTable'
import { SendMoney, type ResumeTransfer } from './SendMoney'

const LIST = 'internal-accounts'

export function InternalAccountsView() {
  const focusId = useUi((s) => s.focusId)
  const save = useListMemory((s) => s.save)
  const [memory] = useState(() => listMemory(LIST))
  const [scope, setScope] = useState(memory.filters['scope'] ?? 'all')
  const [currency, setCurrency] = useState(memory.filters['currency'] ?? '')
  const [selectedId, setSelectedId] = useState<string | null>(memory.selectedId)
  // "Send money" on a customer's detail: the section opens on the form, paying from that customer's account.
  const [sending, setSending] = useState<{ sourceId: string | null; resume: ResumeTransfer | null } | null>(() => {
    const asked = askedOnOpen('send-money')
    return asked ? { sourceId: asked.sourceId, resume: null } : null
  })
  // Asked again while on screen (the command palette's "Send money"): the form opens then too.
  useAskedAction('send-money', (asked) => setSending({ sourceId: asked.sourceId, resume: null }))
  const detailRef = useRef<HTMLElement>(null)
  const select = useCallback(
    (id: string | null) => {
      setSelectedId(id)
      save(LIST, { selectedId: id })
    },
    [save]
  )
  // Arriving with an id (a link from a customer, a notification) opens that account.
  const [seenFocus, setSeenFocus] = useState<string | null>(null)
  if (focusId !== seenFocus) {
    setSeenFocus(focusId)
    if (focusId?.startsWith('InternalAccount:')) setSelectedId(focusId)
  }

  const all = useChannelQuery('internalAccounts.list', { scope: 'all' })
  const { names: customerNames } = useCustomerNames()
  const accounts = useMemo(() => all.data?.rows ?? [], [all.data])
  const rows = useMemo(
    () =>
      accounts
        .filter((a) => (scope === 'platform' ? !a.customerId : scope === 'customer' ? !!a.customerId : true))
        .filter((a) => !currency || a.balance.currency.code === currency)
        .sort(
          (a, b) =>
            Number(!!a.customerId) - Number(!!b.customerId) ||
            a.balance.currency.code.localeCompare(b.balance.currency.code)
        ),
    [accounts, scope, currency]
  )
  const currencies = useMemo(() => [...new Set(accounts.map((a) => a.balance.currency.code))].sort(), [accounts])
  const mixed = new Set(rows.map((r) => r.balance.currency.code)).size > 1
  const selected = accounts.find((a) => a.id === selectedId)
  const selectedIndex = rows.findIndex((r) => r.id === selectedId)

  useListKeys({
    count: rows.length,
    selected: selectedIndex,
    select: (i) => rows[i] && select(rows[i].id),
    open: () => detailRef.current?.focus(),
    close: () => (sending ? setSending(null) : select(null))
  })

  const setFilter = (name: 'scope' | 'currency', value: string) => {
    if (name === 'scope') setScope(value)
    else setCurrency(value)
    save(LIST, { filters: { scope, currency, [name]: value } })
  }
  const ownerOf = (a: InternalAccount) =>
    a.customerId ? (
      (customerNames.get(a.customerId as string) ?? <Id value={a.customerId} />)
    ) : (
      <span className="owner-platform">Platform</span>
    )

  const balanceColumns: TableColumn<InternalAccount>[] = [
    { key: 'owner', header: 'Owner', render: ownerOf },
    { key: 'currency', header: 'Currency', render: (a) => a.balance.currency.code },
    {
      key: 'balance',
      header: 'Balance',
      numeric: true,
      render: (a) => <Money amount={a.balance.amount} currency={a.balance.currency} showCode={mixed} />
    },
    { key: 'updated', header: 'Updated', render: (a) => <Time iso={a.updatedAt} /> }
  ]

  return (
    <section className="page" aria-labelledby="ia-title">
      <div className="page-head">
        <h1 id="ia-title">Internal accounts</h1>
        <button
          className="primary"
          disabled={accounts.length === 0}
          onClick={() => setSending({ sourceId: selectedId, resume: null })}
        >
          Send money
        </button>
      </div>
      <div className="list-detail">
        <div className="list-pane">
          <div className="filters">
            <OwnerFilter value={scope} onChange={(owner) => setFilter('scope', owner)} />
            <FilterSelect
              label="Currency"
              value={currency}
              any="Any currency"
              options={currencies}
              onChange={(v) => setFilter('currency', v)}
            />
          </div>
          {all.error && <ErrorNotice error={all.error} onRetry={all.reload} />}
          {all.loading && !all.data ? (
            all.error ? null : (
              <SkeletonRows label="internal accounts" />
            )
          ) : (
            all.data && (
              <>
                <div className="list-meta">
                  <span>
                    {rows.length} account{rows.length === 1 ? '' : 's'}
                  </span>
                  <Freshness syncedAt={all.data.syncedAt} />
                </div>
                {rows.length === 0 ? (
                  accounts.length === 0 && !all.data.syncedAt ? (
                    <NeverSynced />
                  ) : accounts.length === 0 ? (
                    <EmptyState title="No internal accounts yet.">
                      Internal accounts hold the balances you pay out from. The service opens them for the platform and
                      for each customer; they appear here after the first sync.
                    </EmptyState>
                  ) : (
                    <EmptyState title="No internal account matches these filters." />
                  )
                ) : (
                  <DataTable
                    scrolls
                    label="Balances"
                    variant="balances"
                    columns={balanceColumns}
                    rowKey={idOf}
                    rows={rows}
                    onOpen={(a) => {
                      select(a.id)
                      setSending(null)
                    }}
                    rowProps={(a) => ({ 'aria-selected': a.id === selectedId })}
                  />
                )}
              </>
            )
          )}
          <TransferJournal
            accounts={accounts}
            customerNames={customerNames}
            onResume={(resume) => setSending({ sourceId: resume.sourceAccountId, resume })}
          />
        </div>
        <aside
          className="detail-pane"
          aria-label={sending ? 'Send money' : 'Internal account detail'}
          ref={detailRef}
          tabIndex={-1}
        >
          {sending ? (
            <SendMoney
              key={sending.resume?.actionId ?? `new:${sending.sourceId ?? ''}`}
              accounts={accounts}
              customerNames={customerNames}
              sourceId={sending.sourceId}
              resume={sending.resume}
              onClose={() => setSending(null)}
            />
          ) : selected ? (
            <InternalAccountDetail
              account={selected}
              owner={
                selected.customerId ? (customerNames.get(selected.customerId as string) ?? 'Customer') : 'Platform'
              }
              onClose={() => select(null)}
              onSend={() => setSending({ sourceId: selected.id, resume: null })}
            />
          ) : (
            <p className="muted">Select an account to see its balance and how to fund it. j/k move, Esc closes.</p>
          )}
        </aside>
      </div>
    </section>
  )
}
