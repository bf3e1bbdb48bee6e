import { spawn, type ChildProcess } from 'node:child_process'
import { expect, type Page } from '@playwright/test'
import { resolve } from 'node:path'
import { addProfileInSettings } from './profiles'

const root = resolve(import.meta.dirname, '../..')
export const SANDBOX_CREDENTIALS = { tokenId: 'sandbox-token', clientSecret: 'sandbox-secret' }

/**
 * A separate sandbox server (what `npm run sandbox` runs), with its default credentials, that a test can stop. It
 * speaks the real approval protocol: point its webhookEndpoint (PATCH /config) at a gate to decide incoming payments.
 */
export async function startStandaloneSandbox(extraArgs: string[] = []): Promise<{
  baseUrl: string
  process: ChildProcess
  api(method: string, path: string, body?: unknown): Promise<unknown>
  stop(): void
}> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--memory', '--time-scale', '0.05', ...extraArgs],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let output = ''
  const baseUrl = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start:\n${output}`)), 20_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Local sandbox listening on (\S+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    })
  })
  const auth = `Basic ${Buffer.from(`${SANDBOX_CREDENTIALS.tokenId}:${SANDBOX_CREDENTIALS.clientSecret}`).toString('base64')}`
  return {
    baseUrl,
    process: child,
    api: async (method, path, body) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: auth, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) })
      })
      const json: unknown = response.status === 204 ? null : await response.json()
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
      return json
    },
    stop: () => {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }
}

/** The operator adds a sandbox profile for this server in Settings and switches to it. */
export async function addProfileFor(page: Page, name: string, baseUrl: string): Promise<void> {
  await addProfileInSettings(page, { name, baseUrl, ...SANDBOX_CREDENTIALS })
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: 'Switch to' })
    .click()
  // The switch itself, not the environment chip: the Local profile is a sandbox too, so "Sandbox" (and "Live") were
  // already shown before the switch landed, and a caller that then faulted this server saw the Local profile's Live
  // (a fresh-clone CI run: Live, then Connecting… and "no answer yet" as the switch came after the fault).
  await expect(page.getByLabel('Active profile').locator('option:checked')).toHaveText(name)
  await expect(page.getByTestId('environment-chip')).toHaveText('Sandbox')
}

/**
 * Opens Paydesk on a new profile named `name`, pointed at a fresh standalone sandbox started with `args` (e.g.
 * `--faults`), and runs `steps` with that sandbox; it stops afterwards whatever happened.
 */
export async function withStandaloneProfile(
  page: Page,
  appUrl: string,
  profile: { name: string; args?: string[] },
  steps: (sandbox: Awaited<ReturnType<typeof startStandaloneSandbox>>) => Promise<void>
): Promise<void> {
  const sandbox = await startStandaloneSandbox(profile.args)
  try {
    await page.goto(appUrl)
    await addProfileFor(page, profile.name, sandbox.baseUrl)
    await steps(sandbox)
  } finally {
    sandbox.stop()
  }
}
