import type { CopyableId } from '../../../shared/ipc/channels/desktop'
import { paydesk } from './paydesk'

/** The attribute an id on screen carries (see `Id` in ui/atoms.tsx), for the right-click menu's "Copy id". */
export const ID_ATTRIBUTE = 'data-paydesk-id'

/**
 * Desktop app only: a right-click over an id asks main for the menu with "Copy id" (main's own right-click event cannot
 * see which id is under the pointer). Anything that is not one of the service's ids gets the ordinary menu.
 */
export function connectIdContextMenu(): () => void {
  if (!window.paydesk) return () => {}
  // The id schemas load after the first paint, not before it: until they are in, a right-click gets the ordinary menu.
  let copyableId: typeof CopyableId | undefined
  void import('../../../shared/ipc/channels/desktop').then((m) => (copyableId = m.CopyableId))
  const onContextMenu = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target.closest(`[${ID_ATTRIBUTE}]`) : null
    if (!target || !copyableId) return
    const id = copyableId.safeParse(target.getAttribute(ID_ATTRIBUTE))
    if (!id.success) return
    event.preventDefault()
    void paydesk.invoke('desktop.contextMenu', { copyId: id.data })
  }
  document.addEventListener('contextmenu', onContextMenu)
  return () => document.removeEventListener('contextmenu', onContextMenu)
}
