/**
 * How a child process of Paydesk (the Local sandbox, the Local gate) talks to the process that started it: Electron's
 * `process.parentPort` in a utility process, Node's IPC channel in a fork (browser mode, tests). One shape for both,
 * so each entry point only says what it sends.
 */
interface ParentChannel<M> {
  send(message: M): void
  onMessage(listener: (message: unknown) => void): void
  /** Called when the parent is gone (its end of the channel closed). */
  onParentGone(listener: () => void): void
}

interface ElectronParentPort {
  postMessage(message: unknown): void
  on(event: 'message', listener: (e: { data: unknown }) => void): void
}

/** The parts of Node's `process` used here (src/shared knows no Node types: the entry passes its `process`). */
interface ChildProcessSelf {
  send?: ((message: never) => boolean) | undefined
  on(event: 'message', listener: (message: unknown) => void): unknown
  on(event: 'disconnect', listener: () => void): unknown
}

/** `who` names the entry in the error thrown when it was started without a channel. */
export function parentChannel<M>(self: ChildProcessSelf, who: string): ParentChannel<M> {
  const parentPort = (self as unknown as { parentPort?: ElectronParentPort }).parentPort
  if (parentPort) {
    return {
      send: (m) => parentPort.postMessage(m),
      onMessage: (listener) => parentPort.on('message', (e) => listener(e.data)),
      // Electron ends utility processes with the app; nothing to watch.
      onParentGone: () => undefined
    }
  }
  const send = self.send?.bind(self) as ((message: unknown) => boolean) | undefined
  if (!send) throw new Error(`${who} must be started with an IPC channel (fork)`)
  return {
    send: (m) => void send(m),
    onMessage: (listener) => void self.on('message', listener),
    onParentGone: (listener) => void self.on('disconnect', listener)
  }
}
