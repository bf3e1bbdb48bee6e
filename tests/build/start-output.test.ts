import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const lib = pathToFileURL(join(root, 'scripts/lib.mjs')).href
const configHome = mkdtempSync(join(tmpdir(), 'paydesk-start-'))
afterAll(() => rmSync(configHome, { recursive: true, force: true }))

/** Runs `script` (an ES module using scripts/lib.mjs as `lib`) the way `npm start` would on a headless machine. */
function runWithLib(script: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: configHome }
  delete env.DBUS_SESSION_BUS_ADDRESS
  return spawnSync(process.execPath, ['--input-type=module', '-e', `import * as lib from '${lib}'\n${script}`], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000
  })
}

describe('npm start prints only Paydesk’s own lines', () => {
  it('the private keyring session’s bus daemon notices go to a log, and the app’s own output still shows', () => {
    const result = runWithLib(`
      import { spawnSync } from 'node:child_process'
      const command = [...lib.keyringPrefix(), 'sh', '-c', 'echo app-out; echo app-err >&2']
      spawnSync(command[0], command.slice(1), { stdio: 'inherit' })
    `)
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim().split('\n')).toEqual([
      'Paydesk: no desktop keyring session found; using a Paydesk-only GNOME keyring for this run.',
      'app-out'
    ])
    expect(result.stderr).toBe('app-err\n')
    const log = join(configHome, 'Paydesk', 'session-bus.log')
    expect(existsSync(log)).toBe(true)
    // Whatever the daemon said (as root it cannot raise its fd limit) is there, not on the terminal.
    expect(readFileSync(log, 'utf8')).not.toContain('app-err')
  })

  it('setting up says nothing when everything is already installed', { timeout: 180_000 }, () => {
    const result = runWithLib('await lib.ensureInstalled()')
    expect(result.status, result.stderr).toBe(0)
    expect(`${result.stdout}${result.stderr}`).toBe('')
  })
})
