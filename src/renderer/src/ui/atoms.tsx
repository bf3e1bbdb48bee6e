import { useState } from 'react'
import { formatMoney, type CurrencyLike } from '../../../shared/format/money'
import { shortenId } from '../../../shared/format/ids'
import { formatDateTime, formatRelative } from '../format/time'
import { useUi } from '../stores/ui'
import type { Tone } from './status'

export function StatusChip({ value, tone }: { value: string | undefined; tone: Tone }) {
  const text = value ?? 'UNKNOWN'
  return (
    <span
      className={`chip chip-${tone}`}
      title={tone === 'unknown' ? `Status not known to this Paydesk: ${text}` : undefined}
    >
      {text}
    </span>
  )
}

/** Amount from integer minor units, formatted only here; never rounded. */
export function Money(props: {
  amount: number | undefined
  currency: Partial<CurrencyLike> & { code: string }
  showCode?: boolean
}) {
  if (props.amount === undefined) return <span className="muted">—</span>
  const decimals = props.currency.decimals
  if (decimals === undefined) {
    // Without the currency's decimals any formatting would be a guess: show the exact minor units instead.
    return <span className="money">{`${props.amount} minor units ${props.currency.code}`}</span>
  }
  return (
    <span className="money">
      {formatMoney(
        props.amount,
        { code: props.currency.code, decimals, ...(props.currency.symbol ? { symbol: props.currency.symbol } : {}) },
        { showCode: props.showCode ?? false }
      )}
    </span>
  )
}

/** Monospace id shortened in the middle, the full id on hover, and a copy button. */
export function Id({ value, full }: { value: string | undefined | null; full?: boolean }) {
  if (!value) return <span className="muted">—</span>
  return (
    <span className="id" data-paydesk-id={value}>
      <span className="mono" title={value}>
        {full ? value : shortenId(value)}
      </span>
      <CopyButton value={value} />
    </span>
  )
}

/**
 * Copies a value, and says so for a moment. The tick belongs to the value copied, not a flag: a table row
 * (WindowedTable) or the detail pane shows another id in the same element without remounting it, and that id was not
 * copied.
 */
export function CopyButton({ value }: { value: string }) {
  const [copiedValue, setCopiedValue] = useState<string | null>(null)
  const copied = copiedValue === value
  return (
    <button
      className={copied ? 'copy copied' : 'copy'}
      aria-label={`Copy ${value}`}
      onClick={(e) => {
        e.stopPropagation()
        void navigator.clipboard?.writeText(value).then(() => {
          setCopiedValue(value)
          setTimeout(() => setCopiedValue((shown) => (shown === value ? null : shown)), 1200)
        })
      }}
    >
      {copied ? '✓' : null}
    </button>
  )
}

/** Who an account belongs to: its customer, one click from their page, or the platform. */
export function AccountOwner({ customerId }: { customerId: string | null | undefined }) {
  const go = useUi((s) => s.go)
  if (!customerId) return 'Platform'
  return (
    <span className="row">
      <Id value={customerId} />
      <button className="link" onClick={() => go('customers', customerId)}>
        Open customer
      </button>
    </span>
  )
}

/** Relative within a day, absolute after; the exact time in the chosen zone, and the ISO time, on hover. */
export function Time({ iso }: { iso: string | undefined }) {
  if (!iso) return <span className="muted">—</span>
  return (
    <time dateTime={iso} title={`${formatDateTime(iso)} · ${iso}`}>
      {formatRelative(iso)}
    </time>
  )
}

export function ErrorNotice({
  error,
  onRetry
}: {
  error: { message: string; code: string; serviceCode?: string | undefined }
  onRetry?: () => void
}) {
  return (
    <div className="state state-error" role="alert">
      <p>{error.message}</p>
      <p className="muted">
        <code>{error.serviceCode ?? error.code}</code>
      </p>
      {onRetry && <button onClick={onRetry}>Try again</button>}
    </div>
  )
}
