import { useEffect } from 'react'
import { create } from 'zustand'

/**
 * What a customer's detail asked another section to start: adding an external account for that customer, or sending
 * money from one of their internal accounts. The section that does it takes the request as it opens, once.
 */
export type CustomerAction =
  | { kind: 'add-external-account'; customerId: string }
  | { kind: 'send-money'; customerId: string; sourceId: string }

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
