import { isFinalPaymentStatus, paymentStatusSentence, type PaymentNoun } from '../../../shared/payment-status'
import { StatusChip } from './atoms'
import { transactionTone } from './status'

/**
 * A payment's one live status, as every surface shows it: the service's code in its colour, and (with `explain`) the
 * sentence of the shared vocabulary and whether Paydesk still follows it. `data-status` carries the code for tests.
 */
export function PaymentStatus(props: { status: string | undefined; noun: PaymentNoun; explain?: boolean }) {
  const { status, noun } = props
  return (
    <span className="payment-status" data-testid="payment-status" data-status={status ?? ''}>
      <StatusChip value={status} tone={transactionTone(status)} />
      {props.explain && status && (
        <span className="muted">
          {' '}
          {paymentStatusSentence(noun, status)}
          {isFinalPaymentStatus(status) ? '' : ' Paydesk follows it until it is final.'}
        </span>
      )}
    </span>
  )
}
