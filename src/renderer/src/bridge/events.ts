import { paydesk } from './paydesk'
import { activeProfileId, applyProfileList, loadProfiles, switchProfile } from '../data/profiles'
import { isRouteId, useUi, type RouteId } from '../stores/ui'
import { applySyncStatus, loadSyncStatus } from '../data/sync'
import { loadPendingApprovals, setPendingApprovals } from '../data/pending-approvals'
import { invalidateChannels, invalidateCollections, queryClient } from '../data/query-client'
import { applyGateEvent } from '../data/gate-cache'
import { applyExportProgress } from '../data/exports'
import { applyNotices, loadNotices } from '../data/notices'
import { applyUpdateStatus, loadUpdateStatus } from '../data/updates'
import { connectIdContextMenu } from './context-menu'
import { knownNames, nameNotice } from '../shell/toast-names'

function isActive(profileId: string): boolean {
  const active = activeProfileId()
  return !active || active === profileId
}

/**
 * Opens the item a notification is about. A notification of a profile running in the background (approval rules on)
 * switches to that profile first, so the item opens among its own data.
 */
export async function openItem(route: RouteId, id: string | null, profileId?: string): Promise<void> {
  if (profileId && !isActive(profileId)) {
    const error = await switchProfile(profileId)
    if (error) return
  }
  useUi.getState().go(route, id)
}

/**
 * The one place main-process events are subscribed: they become query-cache updates and invalidations (data/), or UI
 * state (stores/ never talk to IPC), and this is where the page asks for its first state. Returns a function that disconnects everything.
 */
export function connectEvents(): () => void {
  // The profile list first: the first screen waits for it, and sync status and notices wait for the profile's session
  // (its cache opening). A browser opens six connections to a host and the event stream keeps one, so a list asked
  // after the calls below queued behind two of them: at a million rows, a trace showed it reach main only once the
  // calls before it had their answers.
  void loadProfiles()
  const offs = [
    // Another profile: its data replaces the last one's on screen (applyProfileList re-queries what is shown, its sync
    // status, notices and approval count included).
    paydesk.on('profiles.changed', (list) => void applyProfileList(list)),
    paydesk.on('sync.status', applySyncStatus),
    paydesk.on('notices.changed', applyNotices),
    // Only the active profile's data is on screen; events of a profile running in the background are not for it.
    paydesk.on('data.changed', ({ profileId, collections }) => {
      if (isActive(profileId)) invalidateCollections(collections)
    }),
    paydesk.on('transactions.changed', ({ profileId }) => {
      if (isActive(profileId)) invalidateCollections(['transactions'])
    }),
    // The approval gate's stream, relayed by main for every profile: only the active one's is on screen, and its
    // count of prompts is the Approvals badge (another profile's count belongs to that profile).
    paydesk.on('gate.linkChanged', ({ profileId }) => {
      if (isActive(profileId)) void invalidateChannels(['gate.link'])
    }),
    paydesk.on('gate.event', ({ profileId, event }) => {
      // A decided payment no longer waits: its "waiting for your approval" notice (main's id for it) goes, whichever
      // profile it belongs to, so a stale call to act never stays on screen.
      if (event.kind === 'decision' && typeof event.data['transactionId'] === 'string') {
        useUi.getState().dismissToast(`gate-prompt:${event.data['transactionId']}`)
      }
      if (!isActive(profileId)) return
      void applyGateEvent(event)
    }),
    paydesk.on('gate.promptsChanged', ({ profileId, count }) => {
      // Kept under its profile whichever is active: only the active one's is on screen.
      setPendingApprovals(profileId, count)
      if (isActive(profileId)) void invalidateChannels(['gate.prompts'])
    }),
    paydesk.on('navigate', ({ route, id, profileId }) => {
      if (isRouteId(route)) void openItem(route, id ?? null, profileId)
    }),
    paydesk.on('updates.status', applyUpdateStatus),
    paydesk.on('export.progress', applyExportProgress),
    connectIdContextMenu(),
    paydesk.on('notification', (n) => {
      const route = isRouteId(n.route) ? n.route : undefined
      useUi.getState().pushToast({
        id: n.id,
        title: n.title,
        body: n.body,
        route,
        targetId: n.targetId,
        ...(n.profileId !== undefined && { profileId: n.profileId })
      })
      // The system's notification is plain text: its ids are named here as the toast names them.
      const named = nameNotice(n, knownNames(queryClient, n.profileId))
      showWebNotification(named.title, named.body, () => route && void openItem(route, n.targetId ?? null, n.profileId))
    })
  ]
  const reportForeground = () =>
    void paydesk.invoke('app.reportForeground', {
      foreground: document.visibilityState === 'visible' && document.hasFocus()
    })
  window.addEventListener('focus', reportForeground)
  window.addEventListener('blur', reportForeground)
  document.addEventListener('visibilitychange', reportForeground)
  reportForeground()
  void loadSyncStatus()
  void loadNotices()
  void loadPendingApprovals()
  void loadUpdateStatus()
  // A paydesk:// link that launched Paydesk (or came while the page loaded) opens now that the page listens.
  void paydesk.invoke('desktop.takeLaunchLink', null).then((r) => {
    if (r.ok && r.value) void openItem(r.value.route, r.value.id, r.value.profileId)
  })
  return () => {
    offs.forEach((off) => off())
    window.removeEventListener('focus', reportForeground)
    window.removeEventListener('blur', reportForeground)
    document.removeEventListener('visibilitychange', reportForeground)
  }
}

/** Browser mode: a web Notification when the page may show one; the in-app toast always appears too. */
function showWebNotification(title: string, body: string, onClick: () => void) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return
  const notification = new Notification(title, { body })
  notification.onclick = () => {
    window.focus()
    onClick()
  }
}
