import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * A process running the Local sandbox (src/sandbox/process-entry.ts). Node's `child_process.fork` implements it here;
 * the desktop app passes an Electron `utilityProcess` one (src/main/electron/sandbox-process.ts).
 */
export interface SandboxProcess {
  readonly pid: number | undefined
  postMessage(message: unknown): void
  onMessage(listener: (message: unknown) => void): void
  /** The process is running and has its id (Electron's utility process has none before). */
  onSpawn(listener: (pid: number) => void): void
  /** Exit of the process, however it happened; `code` null when a signal ended it. */
  onExit(listener: (code: number | null, signal: string | null) => void): void
  kill(): void
}

export type SandboxLauncher = () => SandboxProcess

/**
 * The entry script: the built one beside a built main (out/main; this code may sit in out/main/chunks, a chunk shared
 * by the app's and browser mode's entries), else the TypeScript source run through tsx.
 */
export function nodeSandboxEntry(): { entry: string; execArgv: string[] } {
  for (const dir of [import.meta.dirname, path.dirname(import.meta.dirname)]) {
    const built = path.join(dir, 'sandbox-process.js')
    if (existsSync(built)) return { entry: built, execArgv: [] }
  }
  const source = path.resolve(import.meta.dirname, '../../sandbox/process-entry.ts')
  return { entry: source, execArgv: ['--import', 'tsx'] }
}

/** Browser mode and tests: a Node child process with an IPC channel; it exits when that channel closes. */
export const nodeSandboxLauncher: SandboxLauncher = () => {
  const { entry, execArgv } = nodeSandboxEntry()
  const child = fork(entry, [], {
    execArgv,
    // The parent's stdin is not the sandbox's business; stdout/stderr stay visible for crashes.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced'
  })
  return {
    pid: child.pid,
    postMessage: (m) => void child.send(m as never),
    onMessage: (listener) => child.on('message', listener),
    onSpawn: (listener) => child.once('spawn', () => child.pid !== undefined && listener(child.pid)),
    onExit: (listener) => child.on('exit', (code, signal) => listener(code, signal)),
    kill: () => void child.kill('SIGKILL')
  }
}
