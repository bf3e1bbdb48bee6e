import { useEffect, useRef, useState, type ReactNode } from 'react'
import { isWalletAccountType, type ExternalAccount } from '../../../../shared/api'
import { useChannelMutation } from '../../data/channel-query'
import { FailedAction } from '../../ui/form-submit'
import { AccountOwner, Id, StatusChip, Time } from '../../ui/atoms'
import { externalAccountTone } from '../../ui/status'
import { ActionResult } from '../../ui/view-states'
import { formatAddress } from '../customers/CustomerDetail'
import { accountTypeName, describeAccount, holderName } from './describe'
import { EditExternalAccountForm } from './EditExternalAccountForm'
import { useFollowedStatus } from './follow'

const STATUS_TEXT: Record<string, string> = {
  ACTIVE: 'Verified: ready to receive payments.',
  PENDING: 'Waiting for verification (instant to a few hours). Payments to it are refused until it is ACTIVE.',
  UNDER_REVIEW: 'Under review after a change. Payments to it are refused until it is ACTIVE again.',
  INACTIVE: 'Disabled: it cannot be used.',
  FAILED: 'Verification failed: it cannot be used.',
  DISABLED: 'Disabled by hand: it cannot be used.'
}
const VERIFICATION_TEXT: Record<string, string> = {
  MATCHED: 'The name matches the account holder.',
  PARTIAL_MATCH: 'The name only partly matches the account holder: check it before paying.',
  NOT_MATCHED: 'The name does not match the account holder.',
  UNSUPPORTED: 'This bank does not support name checks.',
  CHECKED_BY_RECEIVING_FI: 'The receiving bank checks the name when paid.',
  PENDING: 'The name check is still running.'
}
const VERIFICATION_TONE: Record<string, 'good' | 'waiting' | 'bad' | 'neutral'> = {
  MATCHED: 'good',
  PARTIAL_MATCH: 'waiting',
  PENDING: 'waiting',
  NOT_MATCHED: 'bad',
  UNSUPPORTED: 'neutral',
  CHECKED_BY_RECEIVING_FI: 'neutral'
}

/** accountInfo members shown as account details (beneficiary gets its own section). */
const INFO_LABELS: [string, string][] = [
  ['routingNumber', 'Routing number'],
  ['accountNumber', 'Account number'],
  ['accountCategory', 'Category'],
  ['bankAccountType', 'Checking or savings'],
  ['sortCode', 'Sort code'],
  ['clabeNumber', 'CLABE'],
  ['iban', 'IBAN'],
  ['swiftCode', 'SWIFT/BIC'],
  ['bankCode', 'Bank code'],
  ['branchCode', 'Branch code'],
  ['pixKey', 'PIX key'],
  ['pixKeyType', 'PIX key type'],
  ['taxId', 'Tax id'],
  ['phoneNumber', 'Phone number'],
  ['provider', 'Provider'],
  ['region', 'Region'],
  ['bankName', 'Bank'],
  ['address', 'Wallet address']
]

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children ?? <span className="muted">—</span>}</dd>
    </>
  )
}

/** Long identifiers (wallet addresses, IBANs) shortened in the middle with copy; short numbers in full. */
function Identifier({ value }: { value: string }) {
  return value.length > 20 ? <Id value={value} /> : <span className="mono">{value}</span>
}

export function ExternalAccountDetail(props: { account: ExternalAccount; onClose(): void; onRemoved(): void }) {
  const { account } = props
  const [editing, setEditing] = useState(false)
  const [saved, setSaved] = useState<string | null>(null)
  const followed = useFollowedStatus(account)
  const editButton = useRef<HTMLButtonElement>(null)
  const [reviewing, setReviewing] = useState(false)
  const removing = useChannelMutation('externalAccounts.remove')
  const { busy, error } = removing
  const reviewRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (reviewing) reviewRef.current?.scrollIntoView({ block: 'nearest' })
  }, [reviewing])

  const info = account.accountInfo as Record<string, unknown>
  const beneficiary = account.accountInfo.beneficiary
  const verification = account.beneficiaryVerificationStatus
  const known = new Set(['accountType', 'beneficiary', 'paymentRails', ...INFO_LABELS.map(([k]) => k)])
  const extra = Object.entries(info).filter(
    ([k, v]) => !known.has(k) && (typeof v === 'string' || typeof v === 'number')
  )

  const remove = async () => {
    const result = await removing.run({ id: account.id as `ExternalAccount:${string}` })
    if (result.ok) props.onRemoved()
  }

  return (
    <div className="detail" data-testid="external-account-detail">
      <div className="panel-head">
        <h2>{holderName(account) ?? accountTypeName(account.accountInfo.accountType)}</h2>
        <button className="icon" aria-label="Close account detail" onClick={props.onClose}>
          ×
        </button>
      </div>
      <div aria-live="polite" data-testid="account-status">
        <p className="detail-sub">
          <StatusChip value={account.status} tone={externalAccountTone(account.status)} />
          <span>
            {accountTypeName(account.accountInfo.accountType)} · {account.currency}
          </span>
        </p>
        {STATUS_TEXT[account.status] && (
          <p className={`hint hint-${externalAccountTone(account.status)}`}>{STATUS_TEXT[account.status]}</p>
        )}
        {followed.following && (
          <p className="muted" data-testid="following-live">
            Following live until the service settles it
            {followed.checkedAt && (
              <>
                {' '}
                · last checked <Time iso={followed.checkedAt} />
              </>
            )}
          </p>
        )}
      </div>
      {saved && <ActionResult ok>{saved}</ActionResult>}
      {editing ? (
        <EditExternalAccountForm
          account={account}
          onCancel={() => {
            setEditing(false)
            requestAnimationFrame(() => editButton.current?.focus())
          }}
          onSaved={(next) => {
            setEditing(false)
            setSaved(
              next.status === 'UNDER_REVIEW'
                ? 'Saved. The service is reviewing the new beneficiary; the status below follows it live.'
                : 'Saved.'
            )
            requestAnimationFrame(() => editButton.current?.focus())
          }}
        />
      ) : (
        <p className="row">
          <button
            ref={editButton}
            onClick={() => {
              setSaved(null)
              setEditing(true)
            }}
          >
            {isWalletAccountType(account.accountInfo.accountType) ? 'Edit platform account id…' : 'Edit…'}
          </button>
        </p>
      )}
      <dl className="facts">
        <Fact label="Account id">
          <Id value={account.id} />
        </Fact>
        <Fact label="Belongs to">
          <AccountOwner customerId={account.customerId as string | null | undefined} />
        </Fact>
        <Fact label="Platform account id">
          {account.platformAccountId && <span className="mono">{account.platformAccountId}</span>}
        </Fact>
        <Fact label="Account type">
          <span className="mono">{account.accountInfo.accountType}</span>
        </Fact>
        {account.cryptoNetwork && <Fact label="Network">{account.cryptoNetwork}</Fact>}
        {INFO_LABELS.filter(([k]) => typeof info[k] === 'string').map(([k, label]) => (
          <Fact key={k} label={label}>
            <Identifier value={info[k] as string} />
          </Fact>
        ))}
        {extra.map(([k, v]) => (
          <Fact key={k} label={k}>
            <span className="mono">{String(v)}</span>
          </Fact>
        ))}
        {account.accountInfo.paymentRails && (
          <Fact label="Payment rails">{account.accountInfo.paymentRails.join(', ')}</Fact>
        )}
        {account.customerId && (
          <Fact label="Default deposit">
            {account.defaultUmaDepositAccount ? 'Yes: incoming payments land here' : 'No'}
          </Fact>
        )}
        <Fact label="Created">
          <Time iso={account.createdAt} />
        </Fact>
      </dl>

      {beneficiary && (
        <>
          <h3>Beneficiary</h3>
          <dl className="facts">
            <Fact label="Type">{beneficiary.beneficiaryType}</Fact>
            {beneficiary.fullName && <Fact label="Full name">{beneficiary.fullName}</Fact>}
            {(beneficiary.legalName ?? beneficiary.businessInfo?.legalName) && (
              <Fact label="Legal name">{beneficiary.legalName ?? beneficiary.businessInfo?.legalName}</Fact>
            )}
            {beneficiary.registrationNumber && (
              <Fact label="Registration number">{beneficiary.registrationNumber}</Fact>
            )}
            {(beneficiary.taxId ?? beneficiary.businessInfo?.taxId) && (
              <Fact label="Business tax id">{beneficiary.taxId ?? beneficiary.businessInfo?.taxId}</Fact>
            )}
            {beneficiary.birthDate && <Fact label="Birth date">{beneficiary.birthDate}</Fact>}
            {beneficiary.nationality && <Fact label="Nationality">{beneficiary.nationality}</Fact>}
            {beneficiary.email && <Fact label="Email">{beneficiary.email}</Fact>}
            {beneficiary.phoneNumber && <Fact label="Phone">{beneficiary.phoneNumber}</Fact>}
            {beneficiary.countryOfResidence && <Fact label="Resides in">{beneficiary.countryOfResidence}</Fact>}
            {beneficiary.address && <Fact label="Address">{formatAddress(beneficiary.address)}</Fact>}
          </dl>
        </>
      )}
      {(verification || account.beneficiaryVerifiedData?.fullName) && (
        <>
          <h3>Name check</h3>
          <p className="detail-sub">
            <StatusChip value={verification} tone={(verification && VERIFICATION_TONE[verification]) || 'unknown'} />
            <span>{verification ? (VERIFICATION_TEXT[verification] ?? '') : ''}</span>
          </p>
          {account.beneficiaryVerifiedData?.fullName && (
            <dl className="facts">
              <Fact label="Name at the bank">{account.beneficiaryVerifiedData.fullName}</Fact>
            </dl>
          )}
        </>
      )}

      <h3>Remove</h3>
      {reviewing ? (
        <div className="review" role="group" aria-label="Review removal" ref={reviewRef}>
          <p>
            Delete <strong>{describeAccount(account)}</strong> for good? This cannot be undone, and no pending payment
            may still use it.
          </p>
          <FailedAction error={error} />
          <div className="row">
            <button className="danger" disabled={busy} onClick={() => void remove()}>
              {busy ? 'Deleting…' : `Delete ${describeAccount(account)} permanently`}
            </button>
            <button onClick={() => setReviewing(false)}>Keep it</button>
          </div>
        </div>
      ) : (
        <button className="danger" onClick={() => setReviewing(true)}>
          Remove…
        </button>
      )}
    </div>
  )
}
