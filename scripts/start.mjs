// `npm start`: the desktop app; where no Electron binary can run, say so in one line and start browser mode instead.
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import {
  build,
  electronBinary,
  ensureInstalled,
  keyringPrefix,
  paydeskConfigDir,
  root,
  runBrowserMode,
  say
} from './lib.mjs'

/** Chromium's complaints about a desktop without a system bus or its services: not Paydesk's to print. */
const CHROMIUM_BUS_NOISE = /:ERROR:(?:dbus\/)?(?:bus|object_proxy)\.cc|Failed to connect to the bus/
/** A binary that cannot open a window (no display, missing libraries) fails within this long. */
const START_MS = 10_000

await ensureInstalled()
build()
const binary = electronBinary()
if (!binary) {
  say('the Electron binary is not available on this machine, so Paydesk starts in browser mode instead.')
  runBrowserMode(process.argv.slice(2))
} else {
  const command = [...keyringPrefix(), binary, root]
  const startedAt = Date.now()
  const child = spawn(command[0], command.slice(1), { cwd: root, stdio: ['inherit', 'inherit', 'pipe'] })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  // What Electron prints while it starts is held: if it fails at once, it goes to a log file and Paydesk says one line.
  let held = []
  const pass = (line) => {
    if (held) held.push(line)
    else process.stderr.write(`${line}\n`)
  }
  createInterface({ input: child.stderr }).on('line', (line) => CHROMIUM_BUS_NOISE.test(line) || pass(line))
  const started = setTimeout(() => {
    for (const line of held) process.stderr.write(`${line}\n`)
    held = null
  }, START_MS)
  child.on('exit', (code, signal) => {
    clearTimeout(started)
    if (code !== 0 && !signal && Date.now() - startedAt < START_MS) {
      const log = join(paydeskConfigDir(), 'electron-start.log')
      mkdirSync(paydeskConfigDir(), { recursive: true })
      writeFileSync(log, (held ?? []).join('\n'))
      say(`Electron could not start (exit code ${code}; its output is in ${log}), so Paydesk starts in browser mode.`)
      runBrowserMode(process.argv.slice(2))
      return
    }
    for (const line of held ?? []) process.stderr.write(`${line}\n`)
    process.exit(signal ? 1 : (code ?? 0))
  })
}
