import { clipboard, Menu, type BrowserWindow, type ContextMenuParams, type MenuItemConstructorOptions } from 'electron'

type EditFlags = Pick<ContextMenuParams['editFlags'], 'canCut' | 'canCopy' | 'canPaste' | 'canSelectAll'>

/**
 * The right-click menu: cut, copy, paste and select all as the page allows them, and "Copy id" over an id (the page
 * names the id through `desktop.contextMenu`, validated as one of the service's ids; it is only ever put on the
 * clipboard, and only when the operator clicks).
 */
export function contextMenuTemplate(
  flags: EditFlags,
  copyId: string | null,
  writeText: (text: string) => void
): MenuItemConstructorOptions[] {
  return [
    ...(copyId !== null ? [{ label: 'Copy id', click: () => writeText(copyId) }, { type: 'separator' } as const] : []),
    { role: 'cut', enabled: flags.canCut },
    { role: 'copy', enabled: flags.canCopy },
    { role: 'paste', enabled: flags.canPaste },
    { type: 'separator' },
    { role: 'selectAll', enabled: flags.canSelectAll }
  ]
}

/** Electron's own right-click event: everywhere except over an id (the page shows that one through IPC). */
export function attachContextMenu(window: BrowserWindow): void {
  window.webContents.on('context-menu', (_event, params) => {
    Menu.buildFromTemplate(contextMenuTemplate(params.editFlags, null, (t) => clipboard.writeText(t))).popup({
      window
    })
  })
}

/** Over an id: the page prevented its default menu and asked for this one. Nothing there is editable. */
export function showIdContextMenu(window: BrowserWindow | null, copyId: string | null): void {
  if (!window || window.isDestroyed()) return
  const flags = { canCut: false, canCopy: true, canPaste: false, canSelectAll: true }
  Menu.buildFromTemplate(contextMenuTemplate(flags, copyId, (t) => clipboard.writeText(t))).popup({ window })
}
