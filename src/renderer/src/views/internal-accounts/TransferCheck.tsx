import { useState } from 'react'
import type { Transaction } from '../../../../shared/api'
import type { TransferRecord } from '../../../../shared/ipc/channels/data'
import type { IpcResult } from '../../../../shared/ipc/define'
import { useChannelMutation } from '../../data/channel-query'
import { FailedAction } from '../../ui/form-submit'
import { DataTable } from '../../ui/DataTable'
import { idOf } from '../../ui/WindowedTable'
import { TRANSACTION_COLUMNS } from '../transactions/transaction-columns'

/**
 * A transfer of unknown outcome that main would not retry blind: how long the service remembers its key is not known,
 * so it is looked up at the service and the operator decides with that answer on screen.
 * Found: "This is it" settles the record, and it is not sent again. Nothing found: the operator may state that it did
 * not go through and send it again as a new action, which main logs.
 */
export function TransferCheck(props: {
  actionId: string
  production: boolean
  /** The production double confirmation, given in the review above. */
  realMoney: boolean
  onSettled(result: { transaction: Transaction; record: TransferRecord }): void
}) {
  const checking = useChannelMutation('transfers.check')
  const resolving = useChannelMutation('transfers.resolve')
  const sendingAgain = useChannelMutation('transfers.sendAgain')
  const steps = [checking, resolving, sendingAgain]
  const busy = steps.some((m) => m.busy)
  const error = steps.find((m) => m.error)?.error ?? null
  const [found, setFound] = useState<Transaction[] | null>(null)
  // One new action per "send again", kept if it must be retried, so the new attempt has one key too.
  const [newActionId] = useState(() => crypto.randomUUID())

  /** One step at a time: the failure shown is the last step's. */
  const run = async <T,>(work: () => Promise<IpcResult<T>>) => {
    steps.forEach((m) => m.clear())
    const result = await work()
    return result.ok ? result.value : null
  }

  const check = async () => {
    const value = await run(() => checking.run({ actionId: props.actionId }))
    if (value) setFound(value.matches)
  }
  const resolve = async (transactionId: string) => {
    const value = await run(() =>
      resolving.run({
        actionId: props.actionId,
        transactionId: transactionId as `Transaction:${string}`
      })
    )
    if (value) props.onSettled(value)
  }
  const sendAgain = async () => {
    const value = await run(() =>
      sendingAgain.run({
        actionId: props.actionId,
        newActionId,
        confirmNotSent: true,
        ...(props.production ? { confirmProduction: true } : {})
      })
    )
    if (value) props.onSettled(value)
  }

  return (
    <div className="transfer-check" role="group" aria-label="Check the service first">
      <p className="result result-warn">
        The outcome of this payment is unknown, and Paydesk cannot know whether the service still remembers its key: a
        retry could pay a second time. Paydesk looks it up at the service, and you decide with what it finds.
      </p>
      <div className="row">
        <button className="primary" disabled={busy} onClick={() => void check()}>
          {busy && !found ? 'Checking…' : found ? 'Check again' : 'Check the service for this payment'}
        </button>
      </div>
      {found &&
        (found.length > 0 ? (
          <DataTable
            label="Matching transactions at the service"
            variant="compact"
            columns={[
              TRANSACTION_COLUMNS.id,
              TRANSACTION_COLUMNS.status,
              TRANSACTION_COLUMNS.created,
              {
                key: 'action',
                header: 'Actions',
                hiddenHeader: true,
                render: (t) => (
                  <button disabled={busy} onClick={() => void resolve(t.id)}>
                    This is it
                  </button>
                )
              }
            ]}
            rowKey={idOf}
            rows={found}
          />
        ) : (
          <p role="status">
            The service shows no outgoing payment of this amount from this account to this destination since it was
            started.
          </p>
        ))}
      {found && found.length > 0 && (
        <p role="status">
          The service shows {found.length === 1 ? 'a payment' : 'payments'} like this one, so it is not sent again: open
          the one that is it with “This is it”.
        </p>
      )}
      {found && found.length === 0 && (
        <div className="row">
          <button
            className="danger"
            disabled={busy || (props.production && !props.realMoney)}
            onClick={() => void sendAgain()}
          >
            It did not go through: send it again
          </button>
        </div>
      )}
      <FailedAction error={error} />
    </div>
  )
}
