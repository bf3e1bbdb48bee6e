import { useState, type ReactNode } from 'react'
import type { IpcError } from '../../../../shared/ipc/define'
import { useActiveProfile } from '../../data/profiles'
import { FailedAction } from '../../ui/form-submit'
import { ActionResult } from '../../ui/view-states'

/** True on a production profile: every command that decides or changes how real payments are decided asks twice. */
export function useProduction(): boolean {
  return useActiveProfile()?.environment === 'production'
}

/**
 * The second ask on a production profile (the pattern of transfers and quotes): a box the operator ticks, saying what
 * will happen, before the button works. Main refuses the command without confirmProduction, which this box gives.
 */
export function ConfirmTwice(props: {
  production: boolean
  checked: boolean
  onChange(checked: boolean): void
  children: string
}) {
  if (!props.production) return null
  return (
    <label className="confirm-twice">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      {props.children}
    </label>
  )
}

/** One form's second ask: whether the profile is production, and whether the operator ticked the box. */
export interface ProductionAsk {
  production: boolean
  confirmed: boolean
  setConfirmed(checked: boolean): void
}

export function useProductionAsk(): ProductionAsk {
  const production = useProduction()
  const [confirmed, setConfirmed] = useState(false)
  return { production, confirmed, setConfirmed }
}

/**
 * The end of a gate form that changes how real payments are decided: the second ask, main's refusal, what was done,
 * and the one button, which stays off while it runs or until a production operator ticks the box.
 */
export function ConfirmedSubmit(props: {
  ask: ProductionAsk
  /** What will happen, said in the production box. */
  warning: string
  action: { busy: boolean; error: IpcError | null }
  label: string
  busyLabel: string
  done?: ReactNode
}) {
  const { ask, action } = props
  return (
    <>
      <ConfirmTwice production={ask.production} checked={ask.confirmed} onChange={ask.setConfirmed}>
        {props.warning}
      </ConfirmTwice>
      <FailedAction error={action.error} />
      {props.done && <ActionResult ok>{props.done}</ActionResult>}
      <div className="row">
        <button type="submit" className="primary" disabled={action.busy || (ask.production && !ask.confirmed)}>
          {action.busy ? props.busyLabel : props.label}
        </button>
      </div>
    </>
  )
}
