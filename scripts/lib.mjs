// Shared by `npm start` and `npm run web`: install if needed, build, and make sure an OS keychain is reachable. What
// they print is Paydesk's own lines ("Paydesk: ...") and the app's; the tools' chatter is kept back unless it fails.
import { spawnSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { randomBytes } from 'node:crypto'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

/** One of Paydesk's own lines: what it is doing, so a first start that takes a minute is never silent. */
export function say(line) {
  console.log(`Paydesk: ${line}`)
}

/** setup.sh's own progress lines, said in Paydesk's words; anything else it prints is shown only if it fails. */
const SETUP_PROGRESS = [
  [/^setup: installing system packages/, 'installing system packages (first run; apt may ask for your password)…'],
  [/^setup: installing the locked npm dependencies/, 'installing dependencies (first run, about a minute)…']
]

/** Installs what is missing (scripts/setup.sh), saying so when it does; quiet when everything is in place. */
export async function ensureInstalled() {
  // stdin stays the terminal's, so sudo can ask for a password.
  const child = spawn('bash', ['scripts/setup.sh'], { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] })
  let kept = ''
  createInterface({ input: child.stdout }).on('line', (line) => {
    const progress = SETUP_PROGRESS.find(([pattern]) => pattern.test(line))
    if (progress) say(progress[1])
    else kept += `${line}\n`
  })
  child.stderr.on('data', (chunk) => (kept += chunk))
  const code = await new Promise((resolve) => child.on('close', resolve))
  if (code !== 0) {
    process.stderr.write(kept)
    say(`setting up failed (exit code ${code}); what it printed is above.`)
    process.exit(code ?? 1)
  }
}

/** Builds the app. Its output goes straight through: the config silences the known harmless warnings at source. */
export function build() {
  say('building…')
  run('npx', ['electron-vite', 'build', '--logLevel', 'warn'])
}

/**
 * Desktop sessions already run a Secret Service (GNOME Keyring, KWallet). A headless machine has none, so Paydesk
 * starts a private one: a session bus plus gnome-keyring, unlocked with a random password kept in a 0600 file
 * beside Paydesk's data. Returns the command prefix to run under.
 */
/** Where Paydesk keeps its own files on this machine (the keyring password, the start-up logs). */
export function paydeskConfigDir() {
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'Paydesk')
}

export function keyringPrefix() {
  if (process.platform !== 'linux' || process.env.DBUS_SESSION_BUS_ADDRESS) return []
  const passwordFile = join(paydeskConfigDir(), 'keyring-password')
  if (!existsSync(passwordFile)) {
    mkdirSync(dirname(passwordFile), { recursive: true })
    writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 })
  }
  chmodSync(passwordFile, 0o600)
  say('no desktop keyring session found; using a Paydesk-only GNOME keyring for this run.')
  return [
    'env',
    `PAYDESK_DBUS_LOG=${join(dirname(passwordFile), 'session-bus.log')}`,
    'dbus-run-session',
    `--dbus-daemon=${join(root, 'scripts/quiet-dbus-daemon.sh')}`,
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
