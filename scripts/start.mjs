// `npm start`: the desktop app; where no Electron binary can run, say so in one line and start browser mode instead.
import { spawn } from 'node:child_process'
import { build, electronBinary, ensureInstalled, keyringPrefix, root, runBrowserMode } from './lib.mjs'

ensureInstalled()
build()
const binary = electronBinary()
if (!binary) {
  console.log(
    'Paydesk: the Electron binary is not available on this machine, so Paydesk starts in browser mode instead.'
  )
  runBrowserMode(process.argv.slice(2))
} else {
  const command = [...keyringPrefix(), binary, root]
  const startedAt = Date.now()
  const child = spawn(command[0], command.slice(1), { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => {
    // A binary that is present but cannot open a window (no display, missing libraries) fails at once.
    if (code !== 0 && !signal && Date.now() - startedAt < 10_000) {
      console.log(`Paydesk: Electron could not start (exit code ${code}), so Paydesk starts in browser mode instead.`)
      runBrowserMode(process.argv.slice(2))
      return
    }
    process.exit(signal ? 1 : (code ?? 0))
  })
}
