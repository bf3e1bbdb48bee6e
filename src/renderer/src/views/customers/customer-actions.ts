import { useEffect, useEffectEvent } from 'react'
import { create } from 'zustand'

/**
 * What a customer's detail (or the command palette) asked another section to start: adding an external account for
 * that customer, sending money (from one of their internal accounts, or from one the operator picks), or registering a
 * customer. The section that does it takes the request once.
 */
export type CustomerAction =
  | { kind: 'add-external-account'; customerId: string }
  | { kind: 'send-money'; customerId?: string; sourceId: string | null }
  | { kind: 'new-customer' }

interface CustomerActions {
  pending: CustomerAction | null
  start(action: CustomerAction): void
  clear(): void
}

export const useCustomerActions = create<CustomerActions>((set) => ({
  pending: null,
  start: (pending) => set({ pending }),
  clear: () => set({ pending: null })
}))

/**
 * The action of this kind a customer's detail asked for, read once as the section opens (its first state); the hook's
 * effect then clears it, so coming back to the section later does not start it again.
 */
export function askedOnOpen<K extends CustomerAction['kind']>(kind: K): Extract<CustomerAction, { kind: K }> | null {
  const pending = useCustomerActions.getState().pending
  return pending?.kind === kind ? (pending as Extract<CustomerAction, { kind: K }>) : null
}

/** Clears the action once the section that opened with it has taken it (see askedOnOpen). */
export function useTakeAction(kind: CustomerAction['kind']): void {
  useEffect(() => {
    if (useCustomerActions.getState().pending?.kind === kind) useCustomerActions.getState().clear()
  }, [kind])
}

/**
 * Takes an action of this kind whenever one is asked, also while the section is already on screen (the command palette
 * runs actions from anywhere, the section included), then clears it so it is taken once.
 */
export function useAskedAction<K extends CustomerAction['kind']>(
  kind: K,
  take: (action: Extract<CustomerAction, { kind: K }>) => void
): void {
  const pending = useCustomerActions((s) => (s.pending?.kind === kind ? s.pending : null))
  const onAsked = useEffectEvent((action: Extract<CustomerAction, { kind: K }>) => take(action))
  useEffect(() => {
    if (!pending) return
    useCustomerActions.getState().clear()
    onAsked(pending as Extract<CustomerAction, { kind: K }>)
  }, [pending])
}
