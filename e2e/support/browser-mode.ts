import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { test as base, type Page } from '@playwright/test'

export interface BrowserModeApp {
  /** The URL with the per-launch token, as `npm run web` prints it. */
  url: string
  origin: string
  token: string
  dataDir: string
  output(): string
}

/**
 * The Local approval window every browser-mode Paydesk of the e2e runs with (PAYDESK_TEST_APPROVAL_WINDOW_MS, a
 * test-only setting): the Local sandbox waits this long for approve/reject after a 202 instead of the service's 5 s, and
 * the Local gate gives an unanswered prompt its fallback 5 s before the end, at APPROVAL_FALLBACK_MS instead of 4 s. A
 * click on a prompt then never races that fallback, however loaded the machine; a test that awaits the fallback waits
 * for its event that much longer.
 */
const APPROVAL_WINDOW_MS = 30_000
export const APPROVAL_FALLBACK_MS = APPROVAL_WINDOW_MS - 5_000

/**
 * The URL a starting Paydesk prints ("Open this URL: …" with its token), read from `child`'s output as it comes;
 * `output` is everything printed so far. Refused after `timeoutMs` or when `child` exits first, naming it `what`.
 */
export function printedUrl(
  child: ChildProcess,
  what: string,
  timeoutMs: number
): { url: Promise<string>; output(): string } {
  let output = ''
  const url = new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} printed no URL:\n${output}`)), timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Open this URL: (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.on('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${output}`)))
  })
  return { url, output: () => output }
}

/**
 * Starts the built browser mode, `out/main/web.js` (what `npm run web` runs), on a free port with a fresh data folder
 * (or `dataDir`, to start again on the data of an earlier run; `keepData` keeps it when this run stops).
 * `approvalWindowMs`: a longer Local approval window than APPROVAL_WINDOW_MS, for a test that holds a prompt open
 * across several screens.
 */
export async function startBrowserMode(
  options: { dataDir?: string; keepData?: boolean; approvalWindowMs?: number } = {}
): Promise<BrowserModeApp & { stop(): Promise<void> }> {
  const root = resolve(import.meta.dirname, '../..')
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'paydesk-e2e-'))
  const child: ChildProcess = spawn(process.execPath, ['out/main/web.js', '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, PAYDESK_TEST_APPROVAL_WINDOW_MS: String(options.approvalWindowMs ?? APPROVAL_WINDOW_MS) },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const printed = printedUrl(child, 'browser mode', 30_000)
  const url = await printed.url
  const parsed = new URL(url)
  return {
    url,
    origin: parsed.origin,
    token: new URLSearchParams(parsed.hash.slice(1)).get('token') ?? '',
    dataDir,
    output: printed.output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/**
 * How long a fresh Paydesk may take to show its first synced rows or notice a payment: the Local sandbox's start and
 * the first sync take under a second alone, but 18 s was seen beside three busy processes on two cores, and CI once
 * missed a 15 s bound. Waits for those use this; a test has 60 s in all.
 */
export const FIRST_SYNC_MS = 40_000

/** A fresh browser-mode Paydesk (own data folder, own Local sandbox) for every test, stopped afterwards. */
export const test = base.extend<{ shot: (name: string) => Promise<void>; app: BrowserModeApp }>({
  app: [
    async ({}, use) => {
      const app = await startBrowserMode()
      await use(app)
      await app.stop()
    },
    { timeout: 60_000 }
  ],
  shot: async ({ page }, use, testInfo) => {
    await use(async (name) => {
      await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true })
    })
  }
})

export { expect } from '@playwright/test'
export type { Page } from '@playwright/test'

/**
 * Calls the running Paydesk through its bridge, exactly as the page does: for test set-up that is not the flow under
 * test (e.g. a payment arriving from outside).
 */
export async function invoke(app: BrowserModeApp, channel: string, input: unknown): Promise<unknown> {
  const response = await fetch(`${app.origin}/__paydesk/invoke/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk-token': app.token },
    body: JSON.stringify({ input })
  })
  const result = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } }
  if (!result.ok) throw new Error(`${channel} failed: ${result.error?.message}`)
  return result.value
}

/** The sidebar's button for a section: its name starts with the section's (a count may follow). */
export function sectionButton(page: Page, section: string) {
  return page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${section}`) })
}

/** Opens a section from the sidebar, as the operator would. */
export function nav(page: Page, section: string): Promise<void> {
  return sectionButton(page, section).click()
}

/**
 * `g` then a letter as one gesture: both keydowns reach the page in one step. Pressed one by one from the test, a
 * loaded machine once put more than the chord's 1.5 s between them, and the letter then meant nothing.
 */
export function chord(page: Page, letter: string): Promise<void> {
  return page.evaluate(
    `for (const key of ['g', ${JSON.stringify(letter)}])
      (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))`
  )
}
