// Types for the fake's own test (tests/support/fake-electron.test.ts); main sees the real `electron` types.
export interface FakeReport {
  refused: string[]
  windows: unknown[]
  trays: unknown[]
  errors: Array<{ title: string; message: string }>
  loadedUrl?: string
  page?: {
    url: string
    status?: number | string
    headers?: Record<string, string>
    assets?: Array<{ url: string; status: number | string; headers?: Record<string, string> }>
    privileges?: Record<string, boolean> | null
  }
  quit?: boolean
}

type Constructor = new (...args: unknown[]) => unknown

export interface FakeUtilityProcess {
  readonly pid: number | undefined
  postMessage(message: unknown): void
  on(event: 'message', listener: (message: unknown) => void): void
  on(event: 'exit', listener: (code: number) => void): void
  once(event: 'spawn', listener: () => void): void
  kill(): boolean
}

export interface FakeElectron {
  life: { isReady(): boolean; launch(options?: { openUrl?: string }): void }
  report: FakeReport
  invokeIpc(channel: string, event: unknown, input?: unknown): Promise<unknown>
  protocols: {
    request(url: string): Promise<{ url: string; status: number | string; body?: string }>
    privileges(scheme: string): Record<string, boolean> | undefined
  }
  modules: {
    app: {
      on(event: string, listener: (...args: never[]) => void): unknown
      whenReady(): Promise<void>
      isReady(): boolean
      requestSingleInstanceLock(): boolean
      getPath(name: string): string
      setPath(name: string, path: string): void
      quit(): void
    }
    session: { readonly defaultSession: { webRequest: unknown }; fromPartition(partition: string): unknown }
    protocol: {
      registerSchemesAsPrivileged(schemes: Array<{ scheme: string; privileges?: Record<string, boolean> }>): void
      handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void
    }
    net: { fetch(url: string, init?: { bypassCustomProtocolHandlers?: boolean }): Promise<Response> }
    BrowserWindow: Constructor & { prototype: { loadURL(url: string): Promise<void> } }
    Tray: Constructor
    Notification: Constructor & { isSupported(): boolean }
    powerMonitor: { on(event: string, listener: () => void): unknown }
    screen: { getPrimaryDisplay(): unknown }
    Menu: { setApplicationMenu(menu: { items: unknown[] } | null): void }
    nativeTheme: { shouldUseDarkColors: boolean }
    dialog: { showErrorBox(title: string, message: string): void }
    utilityProcess: {
      fork(modulePath: string, args?: string[], options?: { stdio?: unknown; serviceName?: string }): FakeUtilityProcess
    }
  }
}

export function newReport(): FakeReport
export function createFakeElectron(options?: {
  env?: Record<string, string | undefined>
  report?: FakeReport
  onLoad?: (window: unknown) => void
  onQuit?: (code: number) => void
}): FakeElectron
