import { useActiveProfile } from '../../data/profiles'

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
