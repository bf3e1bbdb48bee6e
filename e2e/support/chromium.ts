/**
 * How the e2e suite and the ui bench launch Debian's Chromium (never a downloaded browser): one list, so a figure the
 * bench prints and a test that passes ran in the same browser.
 */
export const CHROMIUM_PATH = process.env['PAYDESK_CHROMIUM'] ?? '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  // The machine's network is closed: keep Chromium from phoning home, and run as root without its own sandbox.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium 156 builds its address bar's popup (a WebUI page, hidden in headless mode) in every new browser context,
  // and Playwright opens one per test and per bench page: about 1 s of a core, plus 0.45 s of the browser process, in
  // the 2 s after each new page. On two cores that ran beside the cold start the bench times. An operator's browser
  // builds it once, when it starts, not when Paydesk does.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup'
]
