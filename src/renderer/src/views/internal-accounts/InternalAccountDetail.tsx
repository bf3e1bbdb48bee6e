import type { InternalAccount } from '../../../../shared/api'
import { useUi } from '../../stores/ui'
import { AccountOwner, Id, Money, Time } from '../../ui/atoms'

/** Labels of the members the published per-currency instructions carry; any other member shows under its own name. */
const INSTRUCTION_LABELS: Record<string, string> = {
  bankName: 'Bank',
  iban: 'IBAN',
  swiftCode: 'BIC',
  sortCode: 'Sort code',
  clabeNumber: 'CLABE',
  accountNumber: 'Account number',
  routingNumber: 'Routing number',
  reference: 'Reference',
  address: 'Address',
  assetType: 'Asset',
  invoice: 'Invoice'
}
const KNOWN_ORDER = Object.keys(INSTRUCTION_LABELS)

/** Every string member the service sent (known ones first, in a stable order), except the type shown above them. */
function instructionFields(info: Record<string, unknown>): [string, string, string][] {
  const keys = Object.keys(info).filter((k) => k !== 'accountType' && typeof info[k] === 'string')
  keys.sort((a, b) => rank(a) - rank(b))
  return keys.map((k) => [k, INSTRUCTION_LABELS[k] ?? k, info[k] as string])
}
const rank = (k: string) => (KNOWN_ORDER.includes(k) ? KNOWN_ORDER.indexOf(k) : KNOWN_ORDER.length)

export function InternalAccountDetail(props: {
  account: InternalAccount
  owner: string
  onClose(): void
  onSend(): void
}) {
  const { account } = props
  const go = useUi((s) => s.go)
  const instructions = account.fundingPaymentInstructions ?? []
  return (
    <div className="detail" data-testid="internal-account-detail">
      <div className="panel-head">
        <h2>
          {props.owner} · {account.balance.currency.code}
        </h2>
        <button className="icon" aria-label="Close account detail" onClick={props.onClose}>
          ×
        </button>
      </div>
      <p className="review-amount" aria-label="Balance">
        <Money amount={account.balance.amount} currency={account.balance.currency} showCode />
      </p>
      <dl className="facts">
        <dt>Account id</dt>
        <dd>
          <Id value={account.id} />
        </dd>
        <dt>Owner</dt>
        <dd>
          <AccountOwner customerId={account.customerId as string | null | undefined} />
        </dd>
        {account.type && (
          <>
            <dt>Type</dt>
            <dd>{account.type}</dd>
          </>
        )}
        <dt>Currency</dt>
        <dd>
          {account.balance.currency.name ?? account.balance.currency.code} ({account.balance.currency.code}
          {account.balance.currency.decimals !== undefined ? `, ${account.balance.currency.decimals} decimals` : ''})
        </dd>
        <dt>Created</dt>
        <dd>
          <Time iso={account.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time iso={account.updatedAt} />
        </dd>
      </dl>
      <div className="row detail-actions">
        <button className="primary" onClick={props.onSend} disabled={account.balance.amount <= 0}>
          Send money from this account
        </button>
        <button onClick={() => go('quotes', account.id)} disabled={account.balance.amount <= 0}>
          Get a quote
        </button>
      </div>

      <h3>Funding instructions</h3>
      {instructions.length === 0 ? (
        <p className="muted">The service gave no funding instructions for this account.</p>
      ) : (
        instructions.map((instruction, i) => {
          const info = instruction.accountOrWalletInfo as Record<string, unknown>
          return (
            <div className="instruction" key={i}>
              <dl className="facts">
                {typeof info['accountType'] === 'string' && (
                  <>
                    <dt>Type</dt>
                    <dd>{info['accountType']}</dd>
                  </>
                )}
                {instructionFields(info).map(([k, label, value]) => (
                  <div className="contents" key={k}>
                    <dt>{label}</dt>
                    {/* Each value in full with its own copy button: an operator pastes these into a bank form. */}
                    <dd>
                      <Id value={value} full />
                    </dd>
                  </div>
                ))}
                {Array.isArray(info['paymentRails']) && (
                  <>
                    <dt>Rails</dt>
                    <dd>{(info['paymentRails'] as string[]).join(', ')}</dd>
                  </>
                )}
              </dl>
              {instruction.instructionsNotes && <p className="muted">{instruction.instructionsNotes}</p>}
              {instruction.isPlatformAccount && (
                <p className="muted">Paid into the platform’s account, credited here by reference.</p>
              )}
            </div>
          )
        })
      )}
    </div>
  )
}
