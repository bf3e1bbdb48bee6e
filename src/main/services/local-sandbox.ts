import path from 'node:path'

/** What Paydesk needs from the embedded sandbox server (src/sandbox/server.ts, `createSandboxServer`). */
export interface LocalSandbox {
  baseUrl: string
  close(): Promise<void>
}

export interface LocalSandboxOptions {
  dataDir: string
  tokenId: string
  clientSecret: string
  log: (message: string) => void
}

/** `<dataDir>/local-sandbox/state.json`: where the embedded sandbox keeps its state between runs. */
export function localSandboxStateFile(dataDir: string): string {
  return path.join(dataDir, 'local-sandbox', 'state.json')
}

type SandboxModule = {
  createSandboxServer: (options: Record<string, unknown>) => unknown
}

/**
 * Starts the sandbox in this process on a free loopback port, with the profile's generated credentials. The module is
 * loaded lazily so that Paydesk still starts (and every other profile works) if the sandbox cannot.
 */
export async function startLocalSandbox(options: LocalSandboxOptions): Promise<LocalSandbox> {
  // TODO(sandbox lands): make this a plain static import so electron-vite bundles it.
  const specifier = '../../sandbox/server'
  const mod = (await import(/* @vite-ignore */ specifier)) as unknown as SandboxModule
  const server = (await mod.createSandboxServer({
    host: '127.0.0.1',
    port: 0,
    tokenId: options.tokenId,
    clientSecret: options.clientSecret,
    dataFile: localSandboxStateFile(options.dataDir),
    log: options.log
  })) as Record<string, unknown>
  return adaptServer(server)
}

function adaptServer(server: Record<string, unknown>): Promise<LocalSandbox> | LocalSandbox {
  const listen = server['listen']
  if (typeof server['baseUrl'] === 'string') {
    return { baseUrl: server['baseUrl'], close: () => (server['close'] as () => Promise<void>)() }
  }
  if (typeof listen === 'function') {
    return (async () => {
      const res = (await (listen as () => Promise<unknown>).call(server)) as { baseUrl?: string } | string | undefined
      const baseUrl = typeof res === 'string' ? res : (res?.baseUrl ?? (server['baseUrl'] as string))
      return { baseUrl, close: () => (server['close'] as () => Promise<void>).call(server) }
    })()
  }
  throw new Error('The sandbox server module has an unexpected shape.')
}
