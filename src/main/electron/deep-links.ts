import { resolve } from 'node:path'
import { app } from 'electron'
import { DEEP_LINK_SCHEME } from '../../shared/deep-link'
import type { LinkedView } from '../../shared/ipc/channels/desktop'
import { createDeepLinkRouter, type DeepLinkRouter } from '../domain/desktop/deep-links'

type Arrival = { url: string } | { argv: string[] }

/**
 * `paydesk://` links: registered with the OS, received through `open-url` (macOS) or a command line (the first
 * launch's, or a second launch's through `second-instance` on Windows and Linux), and decided by the deep-link router
 * once the profiles are known. A link that arrives before the page listens waits for it, once. Call before `ready`:
 * macOS delivers the launch link early.
 */
export function handleDeepLinks(options: { focus: () => void; log: (m: string) => void }) {
  let router: DeepLinkRouter | null = null
  /** Links that came before the profiles were loaded; decided in order once they are. */
  const early: Arrival[] = []
  let pageListening = false
  let show: (view: LinkedView) => void = () => {}
  let waiting: LinkedView | null = null

  const route = (arrival: Arrival) => {
    if (!router) {
      if (early.length < 5) early.push(arrival)
      return
    }
    if ('url' in arrival) router.openUrl(arrival.url)
    else router.openArgv(arrival.argv)
  }

  // Running from source (`electron .`), the OS must start Electron with the app's folder for the link to reach us.
  const registered =
    process.defaultApp && process.argv[1] !== undefined
      ? app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1])])
      : app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME)
  if (!registered) options.log('could not register as the paydesk:// handler')

  app.on('open-url', (event, url) => {
    event.preventDefault()
    route({ url })
  })
  app.on('second-instance', (_event, argv) => {
    // A second launch brings the window forward; one with a link also opens the link's view.
    options.focus()
    route({ argv })
  })
  early.push({ argv: [...process.argv] })

  return {
    /** The profiles are loaded: decide the links that waited, and every later one at once. */
    start(knownProfileIds: () => readonly string[], showView: (view: LinkedView) => void): void {
      show = showView
      router = createDeepLinkRouter({
        knownProfileIds,
        open: (view) => {
          if (pageListening) show(view)
          else waiting = view
        },
        log: options.log
      })
      for (const arrival of early.splice(0)) route(arrival)
    },
    /** The page is listening: hand it what came before, once. */
    takeLaunchLink(): LinkedView | null {
      pageListening = true
      const view = waiting
      waiting = null
      return view
    }
  }
}
