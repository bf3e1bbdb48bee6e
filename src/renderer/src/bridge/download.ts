import { BRIDGE_EXPORT_PATH, TOKEN_HEADER } from '../../../shared/ipc/wire'
import { TOKEN_KEY } from './web-bridge'

/**
 * Browser mode: fetches a finished export from the bridge (with the launch token, like every bridge call) and hands it
 * to the browser as a download. The server deletes its copy once sent.
 */
export async function downloadExport(exportId: string, fileName: string): Promise<void> {
  const token = window.sessionStorage.getItem(TOKEN_KEY) ?? ''
  const response = await fetch(BRIDGE_EXPORT_PATH + encodeURIComponent(exportId), {
    headers: { [TOKEN_HEADER]: token },
    cache: 'no-store'
  })
  if (!response.ok) throw new Error(`The export could not be downloaded (${response.status}).`)
  const url = URL.createObjectURL(await response.blob())
  try {
    const link = document.createElement('a')
    link.href = url
    link.download = fileName
    document.body.append(link)
    link.click()
    link.remove()
  } finally {
    // The click has handed the blob to the download; revoke on the next turn so it is not cut off.
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }
}
