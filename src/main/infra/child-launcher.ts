import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * A process the Local profile runs: its sandbox (src/sandbox/process-entry.ts) or its approval gate
 * (src/gate/process-entry.ts). Node's `child_process.fork` implements it here; the desktop app passes an Electron
 * `utilityProcess` one (src/main/electron/utility-launcher.ts).
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

/** Which of the Local profile's processes to start. */
type LocalProcessKind = 'sandbox' | 'gate'

/** Starts one of the Local profile's processes (default: the sandbox). */
export type SandboxLauncher = (kind?: LocalProcessKind) => SandboxProcess

const ENTRIES: Record<LocalProcessKind, { built: string; source: string }> = {
  sandbox: { built: 'sandbox-process.js', source: '../../sandbox/process-entry.ts' },
  gate: { built: 'gate-process.js', source: '../../gate/process-entry.ts' }
}

/** The built entry's file name (out/main/<name>, an input of electron.vite.config.ts). */
export const builtEntry = (kind: LocalProcessKind): string => ENTRIES[kind].built

/**
 * The entry script: the built one beside a built main (out/main; this code may sit in out/main/chunks, a chunk shared
 * by the app's and browser mode's entries), else the TypeScript source run through tsx.
 */
function nodeSandboxEntry(kind: LocalProcessKind = 'sandbox'): { entry: string; execArgv: string[] } {
  for (const dir of [import.meta.dirname, path.dirname(import.meta.dirname)]) {
    const built = path.join(dir, ENTRIES[kind].built)
    if (existsSync(built)) return { entry: built, execArgv: [] }
  }
  const source = path.resolve(import.meta.dirname, ENTRIES[kind].source)
  return { entry: source, execArgv: ['--import', 'tsx'] }
}

/** Browser mode and tests: a Node child process with an IPC channel; it exits when that channel closes. */
export const nodeSandboxLauncher: SandboxLauncher = (kind = 'sandbox') => {
  const { entry, execArgv } = nodeSandboxEntry(kind)
  const child = fork(entry, [], {
    execArgv,
    // The parent's stdin is not the process's business; stdout/stderr stay visible for crashes.
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
