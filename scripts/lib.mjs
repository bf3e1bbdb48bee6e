// Shared by `npm start` and `npm run web`: install if needed, build, and make sure an OS keychain is reachable.
import { spawnSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

export function ensureInstalled() {
  run('bash', ['scripts/setup.sh'])
}

export function build() {
  run('npx', ['electron-vite', 'build', '--logLevel', 'warn'])
}

/**
 * Desktop sessions already run a Secret Service (GNOME Keyring, KWallet). A headless machine has none, so Paydesk
 * starts a private one: a session bus plus gnome-keyring, unlocked with a random password kept in a 0600 file
 * beside Paydesk's data. Returns the command prefix to run under.
 */
export function keyringPrefix() {
  if (process.platform !== 'linux' || process.env.DBUS_SESSION_BUS_ADDRESS) return []
  const configHome = process.env.XDG_CONFIG_HOME || join(homedir(), '.config')
  const passwordFile = join(configHome, 'Paydesk', 'keyring-password')
  if (!existsSync(passwordFile)) {
    mkdirSync(dirname(passwordFile), { recursive: true })
    writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 })
  }
  chmodSync(passwordFile, 0o600)
  console.log('Paydesk: no desktop keyring session found; using a Paydesk-only GNOME keyring for this run.')
  return [
    'dbus-run-session',
    '--',
    'bash',
    '-c',
    `eval "$(gnome-keyring-daemon --unlock --components=secrets < ${JSON.stringify(passwordFile)} 2>/dev/null)" >/dev/null; exec "$@"`,
    'paydesk-keyring'
  ]
}

export function electronBinary() {
  try {
    const path = readFileSync(join(root, 'node_modules/electron/path.txt'), 'utf8').trim()
    const binary = join(root, 'node_modules/electron/dist', path)
    if (!existsSync(binary)) return null
    const probe = spawnSync(binary, ['--version'], {
      timeout: 20_000,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }
    })
    return probe.status === 0 ? binary : null
  } catch {
    return null
  }
}

export function exec(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)))
}

export function runBrowserMode(extraArgs) {
  const prefix = keyringPrefix()
  const command = [...prefix, process.execPath, 'out/main/web.js', ...extraArgs]
  exec(command[0], command.slice(1))
}
