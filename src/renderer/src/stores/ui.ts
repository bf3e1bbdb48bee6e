import { create } from 'zustand'

export const ROUTES = [
  { id: 'home', label: 'Home', key: 'h' },
  { id: 'approvals', label: 'Approvals', key: 'a' },
  { id: 'transactions', label: 'Transactions', key: 't' },
  { id: 'customers', label: 'Customers', key: 'c' },
  { id: 'external-accounts', label: 'External accounts', key: 'e' },
  { id: 'internal-accounts', label: 'Internal accounts', key: 'i' },
  { id: 'quotes', label: 'Quotes', key: 'q' },
  { id: 'history', label: 'History', key: 'y' },
  { id: 'sandbox', label: 'Sandbox tools', key: 'x', sandboxOnly: true },
  { id: 'settings', label: 'Settings', key: 's' }
] as const
export type RouteId = (typeof ROUTES)[number]['id']

export interface Toast {
  id: string
  title: string
  body: string
  route?: RouteId
  targetId?: string
  /** The profile the notice is about, when it may not be the active one. */
  profileId?: string
}

interface UiState {
  route: RouteId
  /** The item a route should open (e.g. the approval a notification was about). */
  focusId: string | null
  sidebarCollapsed: boolean
  paletteOpen: boolean
  toasts: Toast[]
  go(route: RouteId, focusId?: string | null): void
  toggleSidebar(): void
  setPaletteOpen(open: boolean): void
  pushToast(toast: Toast): void
  dismissToast(id: string): void
}

export const useUi = create<UiState>((set) => ({
  route: 'home',
  focusId: null,
  sidebarCollapsed: false,
  paletteOpen: false,
  toasts: [],
  go: (route, focusId = null) => set({ route, focusId, paletteOpen: false }),
  toggleSidebar: () => set((s) => ({ sidebarCollapsed: !s.sidebarCollapsed })),
  setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
  pushToast: (toast) => set((s) => ({ toasts: [...s.toasts.filter((t) => t.id !== toast.id), toast].slice(-50) })),
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }))
}))

export function isRouteId(value: string): value is RouteId {
  return ROUTES.some((r) => r.id === value)
}
