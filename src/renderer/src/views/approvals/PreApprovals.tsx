import { useState } from 'react'
import { PreApprovalCreateRequest, type PreApproval } from '../../../../shared/gate'
import { formatMoney, KNOWN_DECIMALS } from '../../../../shared/format/money'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { Id, Time } from '../../ui/atoms'
import { LoadedTable, type TableColumn } from '../../ui/DataTable'
import { FormErrors, SelectField, TextField } from '../../ui/FormFields'
import { useFlatForm } from '../../ui/flat-form'
import { FormFrame } from '../../ui/form-submit'
import { amountMessage, amountOf, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useNow } from '../../ui/view-states'
import { customerName, useCustomerNames } from '../customers/names'
import { ConfirmedSubmit, useProductionAsk } from './ConfirmTwice'

const CURRENCIES = Object.keys(KNOWN_DECIMALS).sort()

const range = (p: Pick<PreApproval, 'currency' | 'minAmount' | 'maxAmount'>) => {
  const decimals = KNOWN_DECIMALS[p.currency]
  if (decimals === undefined) return `${p.minAmount}–${p.maxAmount} minor units ${p.currency}`
  const c = { code: p.currency, decimals }
  return `${formatMoney(p.minAmount, c)} to ${formatMoney(p.maxAmount, c, { showCode: true })}`
}

/** used / expired / unused, as the list shows it. */
export function preApprovalState(
  p: Pick<PreApproval, 'usedBy' | 'expiresAt'>,
  now: number
): 'used' | 'expired' | 'unused' {
  if (p.usedBy) return 'used'
  return Date.parse(p.expiresAt) <= now ? 'expired' : 'unused'
}
const STATE_TONE = { used: 'good', expired: 'neutral', unused: 'waiting' } as const

/** A datetime-local box's value (the operator's own time) as an ISO instant; the text itself when it is not one. */
export function localToIso(text: string): string {
  const time = Date.parse(text)
  return text && !Number.isNaN(time) ? new Date(time).toISOString() : text
}

/**
 * Approving a payment before it arrives: for a customer chosen by name, a currency, an amount range typed in major
 * units (converted to minor units here, exactly), optionally one sender, until an expiry. Used by one payment, once.
 */
export function PreApprovals() {
  const now = useNow(30_000)
  const list = useChannelQuery('gate.preApprovals.list', null)
  const { names } = useCustomerNames()
  const columns: TableColumn<PreApproval>[] = [
    {
      key: 'state',
      header: 'State',
      render: (p) => {
        const state = preApprovalState(p, now)
        return <span className={`chip chip-${STATE_TONE[state]}`}>{state}</span>
      }
    },
    { key: 'customer', header: 'Customer', render: (p) => names.get(p.customerId) ?? <Id value={p.customerId} /> },
    { key: 'range', header: 'Amount range', render: range },
    { key: 'sender', header: 'Sender', className: 'mono', render: (p) => p.sender ?? 'any' },
    { key: 'expires', header: 'Expires', render: (p) => <Time iso={p.expiresAt} /> },
    { key: 'by', header: 'Added by', render: (p) => p.createdBy },
    { key: 'used', header: 'Used by', render: (p) => <Id value={p.usedBy} /> }
  ]
  return (
    <div className="two-panels">
      <div className="panel">
        <h2>Pre-approvals</h2>
        <LoadedTable
          label="Pre-approvals"
          columns={columns}
          read={list}
          rowsOf={(d) => d.preApprovals}
          loadingLabel="pre-approvals"
          empty={<p className="muted">No pre-approvals. Add one to approve an expected payment before it arrives.</p>}
        />
      </div>
      <PreApprovalForm />
    </div>
  )
}

function PreApprovalForm() {
  const ask = useProductionAsk()
  const [added, setAdded] = useState<string | null>(null)
  const { customers } = useCustomerNames()
  const adding = useChannelMutation('gate.preApprovals.add', { invalidates: ['gate.preApprovals.list', 'gate.log'] })
  const currencyIn = (v: Record<string, string>) => currencyOf({ code: v['currency'] ?? '' })
  const form = useFlatForm(
    PreApprovalCreateRequest,
    { customerId: '', currency: 'USD', minAmount: '', maxAmount: '', sender: '', expiresAt: '' },
    {
      toInput: (v) => ({
        customerId: v['customerId'],
        currency: v['currency'],
        ...(v['minAmount']?.trim() && { minAmount: amountOf(v['minAmount'], currencyIn(v)) }),
        maxAmount: amountOf(v['maxAmount'] ?? '', currencyIn(v)),
        ...(v['sender']?.trim() && { sender: v['sender'].trim() }),
        expiresAt: localToIso(v['expiresAt'] ?? '')
      }),
      checks: (v, submitted) => ({
        customerId: v['customerId'] ? undefined : submitted ? 'Choose the customer the payment is for' : null,
        minAmount: v['minAmount']?.trim() ? amountMessage(v['minAmount'], currencyIn(v), submitted) : null,
        maxAmount: amountMessage(v['maxAmount'] ?? '', currencyIn(v), submitted),
        expiresAt: v['expiresAt'] ? undefined : submitted ? 'Say until when it holds' : null
      })
    }
  )
  const currency = currencyIn(form.values)
  const submit = async () => {
    const preApproval = form.submit()
    if (!preApproval) return
    const result = await adding.run({ preApproval, ...(ask.production && { confirmProduction: true }) })
    if (result.ok) {
      setAdded(
        `Pre-approved ${range(result.value)} for ${customers.data?.rows.find((c) => c.id === result.value.customerId)?.fullName ?? result.value.customerId}.`
      )
      form.reset()
      ask.setConfirmed(false)
    }
  }
  return (
    <FormFrame className="panel form" label="Add a pre-approval" onSubmit={() => void submit()}>
      <h2>Add a pre-approval</h2>
      <SelectField
        form={form}
        prefix="pre"
        name="customerId"
        label="Customer"
        placeholder={customers.data ? 'Choose a customer' : 'Loading customers…'}
        options={(customers.data?.rows ?? []).map((c) => ({ value: c.id, label: customerName(c) ?? c.id }))}
      />
      <SelectField
        form={form}
        prefix="pre"
        name="currency"
        label="Currency"
        options={CURRENCIES.map((c) => ({ value: c, label: c }))}
      />
      <div className="grid-2">
        <MoneyField form={form} name="minAmount" id="pre-minAmount" label="From (optional)" currency={currency} />
        <MoneyField form={form} name="maxAmount" id="pre-maxAmount" label="Up to" currency={currency} />
      </div>
      <TextField
        form={form}
        prefix="pre"
        name="sender"
        label="Only from this sender (optional)"
        placeholder="$alice@example.com or an account id"
      />
      <TextField form={form} prefix="pre" name="expiresAt" type="datetime-local" label="Expires" />
      <FormErrors
        messages={form.otherErrors(['customerId', 'currency', 'minAmount', 'maxAmount', 'sender', 'expiresAt'])}
      />
      <ConfirmedSubmit
        ask={ask}
        warning="Production: the first real payment this matches will be approved without asking."
        action={adding}
        label="Add pre-approval"
        busyLabel="Adding…"
        done={added}
      />
    </FormFrame>
  )
}
