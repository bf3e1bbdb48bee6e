import AxeBuilder from '@axe-core/playwright'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { FIRST_SYNC_MS, expect, invoke, nav, test, type BrowserModeApp, type Page } from '../support/browser-mode'
import { addProfileFor, startStandaloneSandbox } from '../support/standalone-sandbox'

/*
 * The top bar's connection state at its exact wording, for a hung service, a killed Local sandbox (and its Restart) and
 * an unreachable remote profile. Each waits for the state it names (a fault held by the sandbox, a process killed),
 * never for time to pass.
 */

const chip = (page: Page) => page.getByTestId('connection-state')

/** axe on the top bar and the list's note as they are now: nothing serious or critical (the bar). */
async function axeFindings(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('.topbar').include('.list-meta').analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes[0]?.target.join(' ')}`)
}

/** The pid of a process's child whose command line names `entry` (Linux /proc). */
function childOf(parent: number, entry: string): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === parent && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(entry)) return Number(name)
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined
}

/** This test's browser-mode Paydesk (found by its own data folder), then its Local sandbox's process. */
function localSandboxPid(app: BrowserModeApp): number {
  const web = readdirSync('/proc').find((name) => {
    try {
      return /^\d+$/.test(name) && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(`\0${app.dataDir}`)
    } catch {
      return false
    }
  })
  const pid = web && childOf(Number(web), 'sandbox-process.js')
  if (!pid) throw new Error('the Local sandbox’s process was not found')
  return pid
}

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

test('a hung service: "Not responding" with the time since its last answer, then Live once it answers again', async ({
  page,
  app,
  shot
}) => {
  // Not responding comes 10 s after the hang, Live 10 s after the answers resume (the hysteresis): more than the usual
  // minute on a loaded machine.
  test.setTimeout(120_000)
  const sandbox = await startStandaloneSandbox(['--faults'])
  try {
    await page.goto(app.url)
    await addProfileFor(page, 'Team sandbox', sandbox.baseUrl)
    await expect(chip(page)).toHaveText('Live', { timeout: FIRST_SYNC_MS })

    // Every request is held without an answer until the fault is removed.
    await sandbox.api('POST', '/__faults', { kind: 'hang' })
    await expect(chip(page)).toHaveText(/^Not responding · last answer \d+ s ago$/, { timeout: 30_000 })
    await shot('connection-not-responding')
    expect(await axeFindings(page)).toEqual([])

    await sandbox.api('DELETE', '/__faults')
    await expect(chip(page)).toHaveText('Live', { timeout: 45_000 })
    await shot('connection-live-again')
  } finally {
    sandbox.stop()
  }
})

test('the Local sandbox killed: "Local sandbox stopped — Restart", the lists say as of when, and Restart brings it back', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  await expect(chip(page)).toHaveText('Live', { timeout: FIRST_SYNC_MS })
  await nav(page, 'Transactions')
  const meta = page.locator('.list-meta').first()
  await expect(meta).toContainText(/[1-9][\d,]* transactions/, { timeout: FIRST_SYNC_MS })
  await expect(meta).toContainText('matched the service')

  process.kill(localSandboxPid(app), 'SIGKILL')
  await expect(chip(page)).toHaveText('Local sandbox stopped — Restart', { timeout: 30_000 })
  // The cached list stays, saying when it last matched the service; never "updated just now".
  await expect(meta).toContainText(/Local sandbox stopped · as of \S+/)
  await expect(page.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1)).toBeVisible()
  await shot('connection-local-sandbox-stopped')
  expect(await axeFindings(page)).toEqual([])

  await chip(page).getByRole('button', { name: 'Restart' }).click()
  await expect(chip(page)).toHaveText('Live', { timeout: FIRST_SYNC_MS })
  await expect(meta).toContainText('matched the service')
  await shot('connection-local-sandbox-restarted')
})

test('an unreachable remote profile: Offline steadily, never flipping, and its lists say "Not synced yet" and why', async ({
  page,
  app,
  shot
}) => {
  await page.goto(app.url)
  await expect(chip(page)).toHaveText('Live', { timeout: FIRST_SYNC_MS })
  // Every text the chip shows from here on, in order. (A string: the e2e's types have no DOM.)
  await page.evaluate(`(() => {
    const seen = []
    window.chipTexts = seen
    const chip = () => document.querySelector('[data-testid="connection-state"]')
    const note = () => {
      const text = (chip()?.textContent ?? '').trim()
      if (seen.at(-1) !== text) seen.push(text)
    }
    new MutationObserver(note).observe(chip().parentElement, { subtree: true, childList: true, characterData: true })
  })()`)

  const port = await closedPort()
  const profile = (await invoke(app, 'profiles.create', {
    name: 'Gone away',
    environment: 'sandbox',
    baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
    tokenId: 'token',
    clientSecret: 'secret'
  })) as { id: string }
  await invoke(app, 'profiles.switch', { id: profile.id })
  await expect(chip(page)).toHaveText(/^Offline since \S+/, { timeout: 30_000 })
  // Three probes failed (its backoff went 2 s, 4 s, 8 s): enough for a flip to have shown, had there been one.
  await expect
    .poll(async () => ((await invoke(app, 'sync.status', null)) as { intervalMs: number }).intervalMs, {
      timeout: 60_000
    })
    .toBeGreaterThanOrEqual(8_000)
  const texts = (await page.evaluate('window.chipTexts')) as string[]
  const fromOffline = texts.slice(texts.findIndex((t) => t.startsWith('Offline since')))
  expect(fromOffline).toHaveLength(1)

  await nav(page, 'Transactions')
  await expect(page.getByText('Not synced yet — Paydesk cannot reach the service.', { exact: true })).toBeVisible()
  await expect(page.locator('.list-meta').first()).toContainText('Offline · never synced on this machine')
  await expect(page.getByText('No transactions yet.')).toHaveCount(0)
  await shot('connection-unreachable-never-synced')
})
