/**
 * `npm run bench -- ui`: the transactions view as an operator meets it, in browser mode driven by Debian's Chromium
 * (never a downloaded browser), with the Local sandbox generating the history (PAYDESK_LOCAL_GENERATE_TRANSACTIONS).
 *
 * Sizes: `--ui-sizes=100000,1000000` or PAYDESK_BENCH_UI_SIZES (default both). Everything runs in a throw-away data
 * folder and keyring (the section re-runs itself under scripts/with-keyring.sh, so the cold start finds its cache key).
 * Where the generator is missing, the renderer figures are measured on a smaller history made through the sandbox
 * (`sandbox.receive`; PAYDESK_BENCH_UI_FALLBACK rows, default 3000) and the backend figures are reported as not measured.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium, type Browser } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium'
import { folderBytes, invoke, query, rssMb, startApp, waitForLive, waitForTotal, type App } from './ui-app'
import { openTransactions, scrollAtSpeed, scrollTopToBottom, typeInFilter } from './ui-page'
import { MIN_TRANSACTION_SEARCH_CHARS } from '../src/shared/ipc/channels/data'

const ROOT = resolve(import.meta.dirname, '..')

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

function report(name: string, value: number | null, unit: string, target?: { max?: number; min?: number }) {
  const shown = value === null ? 'not measured' : `${value.toFixed(unit === 'ms' ? 1 : 2)} ${unit}`
  let verdict = ''
  if (target && value !== null) {
    const ok = (target.max === undefined || value <= target.max) && (target.min === undefined || value >= target.min)
    verdict = ok ? 'PASS' : 'FAIL'
  }
  const goal = target ? (target.max !== undefined ? `≤ ${target.max} ${unit}` : `≥ ${target.min} ${unit}`) : '(report)'
  // Each figure carries the load it was measured under: the machine may be shared.
  console.log(
    `  ${name.padEnd(64)} ${shown.padStart(16)}   target ${goal.padEnd(12)} ${verdict.padEnd(4)}  load ${load()}`
  )
}

/** Cold starts timed per size: their median is the figure. */
const COLD_STARTS = 3
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1] ?? null

/**
 * The timed keys by kind, median and max: a cleared box and a search that first reaches the minimum length (always
 * answered by main) against a longer one (often narrowed in the page from what is already there). Says where the
 * p95 comes from; the p95 itself is over every timed key.
 */
function keyKinds(typed: { latencies: number[]; lengths: number[] }): string {
  const kinds: [string, (length: number) => boolean][] = [
    // The median over every timed key: the p95 above is nearly the slowest key, the median is the typical one.
    ['all', () => true],
    ['cleared', (n) => n === 0],
    [`${MIN_TRANSACTION_SEARCH_CHARS} chars`, (n) => n === MIN_TRANSACTION_SEARCH_CHARS],
    ['longer', (n) => n > MIN_TRANSACTION_SEARCH_CHARS]
  ]
  return kinds
    .map(([name, holds]) => {
      const values = typed.latencies.filter((_, i) => holds(typed.lengths[i]!)).sort((a, b) => a - b)
      if (!values.length) return `${name}: none`
      return `${name}: ${values.length} keys, median ${values[values.length >> 1]!.toFixed(1)} max ${values.at(-1)!.toFixed(1)} ms`
    })
    .join('; ')
}

function bundleFigure() {
  const html = readFileSync(join(ROOT, 'out/renderer/index.html'), 'utf8')
  const scripts = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!)
  const bytes = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(join(ROOT, 'out/renderer', file))).length, 0)
  console.log(`\n### renderer bundle (${scripts.length} initial script(s)); load ${load()}`)
  report('renderer initial JS, gzip', bytes / 1024, 'KB', { max: 150 })
}

/** Incoming payments from seeded customers until `count` exist in the cache: a history for the renderer figures. */
async function makeHistory(app: App, count: number) {
  const customers = await invoke<{ rows: { id: string }[] }>(app, 'customers.query', { limit: 100 })
  let made = (await query(app, '', 1)).total
  const worker = async () => {
    while (made < count) {
      made += 1
      const customer = customers.rows[made % customers.rows.length]!
      await invoke(app, 'sandbox.receive', {
        senderUmaAddress: '$pending.long.usd@sandbox.uma.money',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 100 + made,
        customerId: customer.id
      })
    }
  }
  await Promise.all(Array.from({ length: 6 }, worker))
  return waitForTotal(app, count, 30_000)
}

/** tsx compiles with keepNames, so functions handed to page.evaluate call `__name`: the page gets a no-op one. */
async function newPage(browser: Browser) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.addInitScript({ content: 'globalThis.__name = (target) => target' })
  return page
}

async function rendererFigures(browser: Browser, app: App, size: number) {
  const page = await newPage(browser)
  await page.goto(app.url)
  await page.locator('nav[aria-label="Sections"]').waitFor()
  const fromNavigation = await openTransactions(page)
  const sample = (await query(app, '', 200)).rows
  const texts = [0, 37, 91, 150, 199].map((i) => sample[i % sample.length]!.id.slice(-7))
  const typed = await typeInFilter(page, texts, MIN_TRANSACTION_SEARCH_CHARS)
  const keystroke = p95(typed.latencies)
  const scroll = await scrollTopToBottom(page, 400)
  const frames = size <= 200_000 ? await scrollAtSpeed(page, 3000, 6) : null
  await page.close()
  return { fromNavigation, keystroke, typed, scroll, frames }
}

async function runSize(browser: Browser, size: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-bench-ui-'))
  const env = { PAYDESK_LOCAL_GENERATE_TRANSACTIONS: String(size) }
  try {
    console.log(`\n### ${size.toLocaleString('en-US')} transactions; load ${load()}`)
    // First start: the generator fills the sandbox, and the first sync fills the cache.
    let app = await startApp(dataDir, env)
    // The sandbox generates the history in its own process before the first page can be read (it saves it while it
    // answers): on a loaded machine, a minute or two of nothing in the cache is not a stall yet.
    const synced = await waitForTotal(app, size, 180_000)
    const generated = synced.at !== null
    let label = `${size.toLocaleString('en-US')}`
    if (!generated) {
      const fallback = Number(process.env['PAYDESK_BENCH_UI_FALLBACK'] ?? 3000)
      console.log(
        `  The Local sandbox did not generate ${label} transactions (PAYDESK_LOCAL_GENERATE_TRANSACTIONS not read by this build: the cache holds ${synced.total}).` +
          ` Backend figures are not measured; renderer figures use ${fallback} transactions made through sandbox.receive.`
      )
      const made = await makeHistory(app, fallback)
      label = `${made.total.toLocaleString('en-US')} (fallback)`
    }
    if (size === 100_000 && generated)
      report('first full sync of 100,000 transactions', synced.at! - app.startedAt, 'ms', { max: 60_000 })
    // At a million, the same clock (generation in the sandbox, then the first sync) is reported without a target, and
    // so is the text index's rebuild after it (a long catch-up leaves the index behind): until it ends, a search
    // misses older history, and stopping the app waits for it.
    if (size !== 100_000 && generated) {
      report(`first full sync of ${label} transactions, generation included`, synced.at! - app.startedAt, 'ms')
      const indexed = await waitForLive(app)
      report(`  … and its text index rebuilt (search whole)`, indexed === null ? null : indexed - app.startedAt, 'ms')
    }
    await app.stop()

    // Cold start with the cache already filled. The tab is opened before Paydesk starts, as an operator's browser (or
    // the desktop app's window) is there before the page loads: Playwright's newPage (about 0.6 s here) is the test
    // harness, not Paydesk's start-up. The clock still starts when the process does. On two shared cores one start
    // varies by hundreds of milliseconds with what else the machine does, so it is timed COLD_STARTS times and the
    // median is the figure (every sample is printed with it). At a million, each start is followed by its first text
    // search (the newest row's id, as an operator pastes one), timed the same way: one search on a fresh process is
    // one sample of the same noise.
    const starts: { fromNavigation: number; fromStart: number }[] = []
    const firstSearches: number[] = []
    let rss: number | null = null
    for (let i = 0; i < COLD_STARTS; i++) {
      const page = await newPage(browser)
      app = await startApp(dataDir, env)
      await page.goto(app.url)
      await page.locator('nav[aria-label="Sections"]').waitFor()
      const fromNavigation = await openTransactions(page)
      starts.push({ fromNavigation, fromStart: performance.now() - app.startedAt })
      await page.close()
      if (size === 1_000_000 && generated) {
        // Before the search, so the figure is the cache open, not what one search read into it.
        if (i === COLD_STARTS - 1) rss = rssMb(app.pid)
        const needle = (await query(app, '', 1)).rows[0]?.id.slice(-8) ?? 'zz'
        const t0 = performance.now()
        await query(app, needle)
        firstSearches.push(performance.now() - t0)
      }
      if (i < COLD_STARTS - 1) await app.stop()
    }
    const samples = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ')
    report(
      `cold start → first rows + total, from navigation (${label}; median of ${samples(starts.map((s) => s.fromNavigation))})`,
      median(starts.map((s) => s.fromNavigation)),
      'ms',
      { max: 300 }
    )
    report(
      `cold start → first rows + total, from process start (${label}; tab open before; median of ${samples(starts.map((s) => s.fromStart))})`,
      median(starts.map((s) => s.fromStart)),
      'ms',
      { max: 1500 }
    )
    if (size === 1_000_000) {
      report('backend RSS with the cache open, at 1M', rss, 'MB', { max: 200 })
      report(
        `first text-search result, at 1M (bridge round trip; median of ${samples(firstSearches)})`,
        firstSearches.length ? median(firstSearches) : null,
        'ms',
        { max: 30 }
      )
    }
    const cacheBytes = folderBytes(dataDir, (name) => name === 'local-sandbox' || name === 'logs')
    report(
      'cache file size per 100,000 transactions',
      generated ? ((cacheBytes / size) * 100_000) / 2 ** 20 : null,
      'MB'
    )

    const r = await rendererFigures(browser, app, size)
    const keystrokeTarget = size >= 1_000_000 ? 50 : 16
    report(
      `filter keystroke → list updated, p95 (${label}; ${r.typed.latencies.length} keys, ${r.typed.unchanged} unchanged, ` +
        `${r.typed.belowMin} keys below ${MIN_TRANSACTION_SEARCH_CHARS} characters, not sent)`,
      r.keystroke,
      'ms',
      { max: keystrokeTarget }
    )
    console.log(`  ${'  by kind of key:'.padEnd(64)} ${keyKinds(r.typed)}`)
    report(`longest task while scrolling top to bottom (${label})`, r.scroll.longestTask, 'ms', { max: 50 })
    console.log(
      `  ${`the bottom of the scroll shows the list's last row (${label})`.padEnd(64)} ${(r.scroll.lastRowShown ? 'yes' : 'no').padStart(16)}   target yes          ${r.scroll.lastRowShown ? 'PASS' : 'FAIL'}`
    )
    if (!r.scroll.lastRowShown) console.log(`    (${r.scroll.lastRowNote})`)
    console.log(
      `    (longest frame while scrolling: ${r.scroll.longestFrame.toFixed(1)} ms; long tasks under 50 ms are not reported by the browser)`
    )
    if (r.frames)
      report(
        `frames with rows drawn at 3,000 px/s (${label}; ${r.frames.frames} frames)`,
        (100 * r.frames.drawn) / r.frames.frames,
        '%',
        { min: 95 }
      )

    if (size === 100_000 || !generated) {
      const blocked = await approvalBurst(app)
      report(
        `longest main event-loop block, 20 payments auto-approved (${label})`,
        blocked,
        'ms',
        generated ? { max: 50 } : undefined
      )
    }
    await app.stop()
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Decisions in the gate's log (newest 500: the burst is 20). */
const decisionCount = async (app: App) =>
  (
    await invoke<{ events: { kind: string }[] }>(app, 'gate.log', { limit: 500 }).catch(() => ({ events: [] }))
  ).events.filter((e) => e.kind === 'decision').length

/**
 * Gives the Local profile's approval gate a rule that approves, lets 20 payments arrive (each a signed webhook the gate
 * answers), waits until all are decided; the longest event-loop block of Paydesk's main meanwhile, which follows the
 * gate's stream and raises the notifications.
 */
async function approvalBurst(app: App): Promise<number | null> {
  // The list answers from the cache first and refreshes it in the background: a cache that never listed customers
  // has them a moment later.
  let customers: { rows: { id: string; currencies?: string[] }[] } = { rows: [] }
  for (let i = 0; i < 60 && customers.rows.length === 0; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 500))
    customers = await invoke(app, 'customers.query', { kycStatus: 'APPROVED', limit: 100 })
  }
  const customer = customers.rows.find((c) => c.currencies?.includes('USD')) ?? customers.rows[0]
  if (!customer) return null
  // The Local gate starts after the Local sandbox answers: wait for its link.
  for (let i = 0; i < 120; i++) {
    const link = await invoke<{ state: string }>(app, 'gate.link', null)
    if (link.state === 'live') break
    await new Promise((r) => setTimeout(r, 500))
  }
  await invoke(app, 'gate.rules.set', {
    rules: {
      rules: [
        {
          name: 'bench',
          maxAmountByCurrency: { USD: 1_000_000 },
          allowedSenders: [],
          requireKycApproved: true,
          action: 'approve',
          fallback: 'reject'
        }
      ],
      otherwise: 'ask',
      otherwiseFallback: 'reject'
    }
  })
  // The same app with no payments arriving, for as long as a burst usually takes: on a shared machine the OS alone
  // holds the loop back this much, which tells a block of ours from the machine's load.
  const quietSince = performance.now()
  await new Promise((r) => setTimeout(r, 5_000))
  console.log(
    `    (longest main event-loop block in 5 s with no payments arriving: ${app.eventLoopMax(quietSince).toFixed(1)} ms; load ${load()})`
  )
  const before = await decisionCount(app)
  const since = performance.now()
  for (let i = 0; i < 20; i++) {
    await invoke(app, 'sandbox.receive', {
      senderUmaAddress: '$pending.long.usd@sandbox.uma.money',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 500 + i,
      customerId: customer.id
    })
  }
  for (let i = 0; i < 240; i++) {
    const decided = await decisionCount(app)
    if (decided - before >= 20) break
    await new Promise((r) => setTimeout(r, 250))
  }
  await new Promise((r) => setTimeout(r, 500))
  return app.eventLoopMax(since)
}

export async function runUiBench(): Promise<void> {
  const flag = process.argv.find((a) => a.startsWith('--ui-sizes='))?.split('=')[1]
  const sizes = (flag ?? process.env['PAYDESK_BENCH_UI_SIZES'] ?? '100000,1000000').split(',').map(Number)
  if (!process.env['PAYDESK_KEYRING_INNER']) {
    // A throw-away keyring that lives as long as the whole section, so the second start finds the cache key.
    const inner = spawnSync(
      'scripts/with-keyring.sh',
      [process.execPath, '--import', 'tsx', 'bench/run.ts', 'ui', `--ui-sizes=${sizes.join(',')}`],
      {
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit']
      }
    )
    if (inner.status !== 0) throw new Error(`ui bench failed (exit ${inner.status})`)
    return
  }
  const build = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('the renderer build failed')
  bundleFigure()
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    for (const size of sizes) await runSize(browser, size)
  } finally {
    await browser.close()
  }
}
