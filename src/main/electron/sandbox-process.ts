import { utilityProcess } from 'electron'
import { join } from 'node:path'
import type { SandboxLauncher } from '../services/sandbox-process'

/**
 * The desktop app's Local sandbox process: an Electron utility process running the built entry
 * (out/main/sandbox-process.js, an input of electron.vite.config.ts). Electron ends it with the app.
 */
export const electronSandboxLauncher: SandboxLauncher = () => {
  const child = utilityProcess.fork(join(__dirname, 'sandbox-process.js'), [], {
    serviceName: 'Paydesk Local sandbox',
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
