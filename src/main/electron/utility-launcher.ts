import { utilityProcess } from 'electron'
import { join } from 'node:path'
import { builtEntry, type SandboxLauncher } from '../infra/child-launcher'

const SERVICE_NAMES = { sandbox: 'Paydesk Local sandbox', gate: 'Paydesk Local approval gate' } as const

/**
 * The desktop app's Local processes (sandbox, approval gate): Electron utility processes running the built entries
 * (out/main/sandbox-process.js, out/main/gate-process.js, inputs of electron.vite.config.ts). Electron ends them with
 * the app.
 */
export const electronSandboxLauncher: SandboxLauncher = (kind = 'sandbox') => {
  const child = utilityProcess.fork(join(__dirname, builtEntry(kind)), [], {
    serviceName: SERVICE_NAMES[kind],
    stdio: 'inherit'
  })
  return {
    get pid() {
      return child.pid
    },
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    onSpawn: (listener) => void child.once('spawn', () => child.pid !== undefined && listener(child.pid)),
    // A utility process reports only its exit code; a crash shows as a non-zero one.
    onExit: (listener) => void child.on('exit', (code) => listener(code, null)),
    kill: () => void child.kill()
  }
}
