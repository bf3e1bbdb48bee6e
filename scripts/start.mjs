// `npm start`: the desktop app; where no Electron binary can run, say so in one line and start browser mode instead.
import { build, electronBinary, ensureInstalled, exec, keyringPrefix, root, runBrowserMode } from './lib.mjs'

ensureInstalled()
build()
const binary = electronBinary()
if (binary) {
  const prefix = keyringPrefix()
  const command = [...prefix, binary, root]
  exec(command[0], command.slice(1))
} else {
  console.log('Paydesk: the Electron binary is not available on this machine, so Paydesk starts in browser mode instead.')
  runBrowserMode(process.argv.slice(2))
}
