// Where code may run, as an allow-list per layer (docs/ARCHITECTURE.md): an import that is not on its layer's list
// fails lint. A new dependency is therefore a decision recorded here, not something any file can start using.
import { builtinModules } from 'node:module'
import { dirname, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

/**
 * Layers, most specific first. `code` lists the source folders a layer may import from; `packages` the npm packages
 * (or sub-paths of them); `builtins` the Node modules, named without the `node:` prefix. A `code` entry ending in `/` is a
 * folder, any other a single file. A file no layer names fails lint, and so does a new file at the root of src/main or
 * src/sandbox outside their entry points: each sub-layer is an allow-list.
 */
/** What code in src/main may use from Node, by sub-layer (the edges and the few modules below add their own). */
const MAIN_BUILTINS = [
  'crypto',
  'events',
  'fs',
  'fs/promises',
  'os',
  'path',
  'perf_hooks',
  'timers/promises',
  'url',
  'util'
]
const MAIN = {
  app: 'src/main/app/',
  handlers: 'src/main/handlers/',
  domain: 'src/main/domain/',
  infra: 'src/main/infra/',
  electron: 'src/main/electron/',
  web: 'src/main/web/'
}
const SANDBOX = {
  http: 'src/sandbox/http/',
  engine: 'src/sandbox/engine/',
  state: 'src/sandbox/state/'
}

export const LAYERS = [
  {
    name: 'the Electron adapter',
    files: [MAIN.electron, 'src/main/index.ts'],
    code: [MAIN.electron, MAIN.app, MAIN.handlers, MAIN.domain, MAIN.infra, 'src/shared/'],
    packages: ['electron', 'electron-updater', 'zod'],
    builtins: ['path', 'url'],
    why: 'Electron adapters stay thin: logic belongs under src/main/domain or src/main/infra.'
  },
  {
    name: 'the browser-mode edge',
    files: [MAIN.web],
    code: [MAIN.web, MAIN.app, MAIN.handlers, MAIN.domain, MAIN.infra, 'src/shared/'],
    packages: [],
    builtins: ['crypto', 'fs', 'http', 'net', 'os', 'path', 'util'],
    why: 'Browser mode is the second edge beside Electron: it serves the page and the bridge, and composes the backend.'
  },
  {
    name: "main's composition (app/)",
    files: [MAIN.app],
    code: [MAIN.app, MAIN.handlers, MAIN.domain, MAIN.infra, 'src/shared/'],
    packages: ['zod'],
    builtins: MAIN_BUILTINS,
    why: 'app/ wires handlers, domain and infrastructure together for one host; only the two edges start it.'
  },
  {
    name: "main's handlers (handlers/)",
    files: [MAIN.handlers],
    // One file per channel group, none calling another: a channel's handler is found in the file named after its group.
    code: ['src/main/handlers/dispatch.ts', MAIN.domain, MAIN.infra, 'src/shared/'],
    packages: ['zod'],
    builtins: MAIN_BUILTINS,
    why: 'A handler turns one channel into calls on the domain: it never reaches the composition (app/), an edge, or another group’s handlers.'
  },
  {
    name: "main's domain (domain/)",
    files: [MAIN.domain],
    code: [MAIN.domain, MAIN.infra, 'src/shared/'],
    packages: ['zod', 'csv-stringify'],
    builtins: MAIN_BUILTINS,
    why: 'The domain (money, approvals, sync, profiles) knows nothing of channels, composition or hosts: handlers and app/ call it.'
  },
  {
    name: 'the SQLite binding',
    files: ['src/main/infra/cache/sqlite.ts'],
    code: [MAIN.infra, 'src/shared/'],
    packages: ['better-sqlite3-multiple-ciphers'],
    builtins: [],
    why: 'Every database is opened through this one module, so a host can hand it the addon built for its ABI.'
  },
  {
    name: 'the cache threads',
    files: [
      'src/main/infra/cache/thread.ts',
      'src/main/infra/cache/writer.ts',
      'src/main/infra/cache/write-thread.ts',
      'src/main/infra/cache/reader.ts',
      'src/main/infra/cache/read-thread.ts'
    ],
    code: [MAIN.infra, 'src/shared/'],
    packages: [],
    builtins: ['fs', 'path', 'url', 'worker_threads'],
    why: 'Only the cache starts threads: its writes and its long reads run there, off the event loop that serves the operator.'
  },
  {
    name: 'the child-process launcher',
    files: ['src/main/infra/child-launcher.ts'],
    code: [MAIN.infra, 'src/shared/'],
    packages: [],
    builtins: ['child_process', 'fs', 'path'],
    why: 'Only the launcher starts a child process: the Local sandbox and gate, outside the backend’s event loop.'
  },
  {
    name: "main's infrastructure (infra/)",
    files: [MAIN.infra],
    // The Local sandbox is embedded: its launcher reads the sandbox's own defaults and its history generator's limits.
    code: [MAIN.infra, 'src/shared/', 'src/sandbox/state/'],
    packages: ['zod', 'keytar', 'undici', 'eventsource-parser'],
    builtins: [...MAIN_BUILTINS, 'net'],
    why: 'infra/ talks to the outside (the service, the keychain, files, processes, the cache) and knows no domain rule, handler or composition.'
  },
  {
    name: 'preload',
    files: ['src/preload/'],
    code: ['src/shared/'],
    packages: ['electron'],
    builtins: [],
    why: 'Preload only bridges the IPC contract.'
  },
  {
    name: "the renderer's stores",
    files: ['src/renderer/src/stores/'],
    code: ['src/renderer/src/stores/', 'src/shared/'],
    packages: ['zustand'],
    builtins: [],
    why: 'Stores keep only UI state: what main holds is read and written through TanStack Query in data/, and main’s events enter in bridge/events.ts.'
  },
  {
    name: 'the renderer',
    files: ['src/renderer/'],
    code: ['src/renderer/', 'src/shared/'],
    packages: ['react', 'react-dom', 'zustand', 'zod', '@tanstack/react-query', 'cmdk', 'lucide-react', 'uplot'],
    builtins: [],
    why: 'The renderer is a sandboxed page: it talks to main only through window.paydesk.'
  },
  {
    name: 'the gate’s SQLite binding',
    files: ['src/gate/store/sqlite-open.ts'],
    code: ['src/gate/', 'src/shared/'],
    packages: ['better-sqlite3-multiple-ciphers'],
    builtins: ['fs'],
    why: 'The gate opens its database through this one module, so a host can hand it the addon built for its ABI.'
  },
  {
    name: 'the gate’s PostgreSQL client',
    files: ['src/gate/store/pg-store.ts', 'src/gate/store/pg-schema.ts'],
    code: ['src/gate/', 'src/shared/'],
    packages: ['pg'],
    builtins: ['crypto'],
    why: 'Only the PostgreSQL store talks to PostgreSQL: the domain sees the GateStore interface, whatever the database.'
  },
  {
    name: 'the gate’s SQLite checkpoint thread',
    files: ['src/gate/store/sqlite-checkpointer.ts', 'src/gate/store/sqlite-checkpoint-thread.ts'],
    code: ['src/gate/', 'src/shared/'],
    packages: [],
    builtins: ['fs', 'path', 'url', 'worker_threads'],
    why: 'WAL checkpoints run in a worker thread so that no commit on the gate’s event loop copies or fsyncs the database.'
  },
  {
    name: 'the approval gate',
    files: ['src/gate/'],
    code: ['src/gate/', 'src/shared/'],
    packages: ['zod', 'fastify', 'prom-client', 'sonic-boom'],
    builtins: ['crypto', 'fs', 'net'],
    why: 'The approval gate runs on the platform’s server, apart from Paydesk: it shares only src/shared with it.'
  },
  {
    name: 'the sandbox’s SQLite binding',
    files: ['src/sandbox/state/sqlite.ts'],
    code: [SANDBOX.state, 'src/shared/'],
    packages: ['better-sqlite3-multiple-ciphers'],
    builtins: ['fs'],
    why: 'The sandbox opens its database through this one module, so a host can hand it the addon built for its ABI.'
  },
  {
    name: 'the sandbox’s HTTP edge (http/)',
    files: [SANDBOX.http],
    code: [SANDBOX.http, SANDBOX.engine, SANDBOX.state, 'src/shared/'],
    packages: ['zod'],
    builtins: ['crypto', 'http'],
    why: 'http/ turns requests into engine calls and sends webhooks; the engine and the state never see a request.'
  },
  {
    name: 'the sandbox’s engine (engine/)',
    files: [SANDBOX.engine],
    code: [SANDBOX.engine, SANDBOX.state, 'src/shared/'],
    packages: [],
    builtins: ['crypto'],
    why: 'The engine holds the service’s rules over the state; it knows nothing of HTTP.'
  },
  {
    name: 'the sandbox’s state (state/)',
    files: [SANDBOX.state],
    code: [SANDBOX.state, 'src/shared/'],
    packages: [],
    builtins: ['crypto', 'fs', 'path'],
    why: 'state/ is the sandbox’s data, its persistence and its clock: it imports neither the engine nor HTTP.'
  },
  {
    name: 'the sandbox’s entry points',
    files: ['src/sandbox/cli.ts', 'src/sandbox/process-entry.ts', 'src/sandbox/server.ts'],
    code: ['src/sandbox/', 'src/shared/'],
    packages: [],
    builtins: ['fs', 'fs/promises', 'http', 'net', 'path', 'url', 'util'],
    why: 'The sandbox server stands alone: it runs without Paydesk, started by its CLI or by Paydesk’s launcher.'
  },
  {
    name: 'shared',
    files: ['src/shared/'],
    code: ['src/shared/'],
    packages: ['zod'],
    builtins: [],
    why: 'src/shared holds schemas and pure helpers that run in every process.'
  }
]

const BUILTINS = new Set(builtinModules)

function packageName(source) {
  const parts = source.split('/')
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

function layerOf(file) {
  return LAYERS.find((layer) =>
    layer.files.some((prefix) => file === prefix || (prefix.endsWith('/') && file.startsWith(prefix)))
  )
}

/** Why `source`, imported from `file` (repo-relative), is refused; null when it is on the layer's list. */
export function refusal(layer, file, source) {
  if (source.startsWith('.')) {
    const target = relative(ROOT, resolve(ROOT, dirname(file), source))
      .split('\\')
      .join('/')
    // A folder names everything under it; a file names itself, imported with or without its extension.
    const within = (entry) =>
      entry.endsWith('/')
        ? target === entry.slice(0, -1) || target.startsWith(entry)
        : target === entry.replace(/\.ts$/, '') || target === entry
    if (layer.code.some(within)) return null
    return `${layer.name} may not import ${target}. ${layer.why}`
  }
  const bare = source.startsWith('node:') ? source.slice(5) : source
  if (source.startsWith('node:') || BUILTINS.has(bare)) {
    if (layer.builtins.includes(bare)) return null
    return `Node's ${bare} is not on ${layer.name}'s allow-list (eslint/layers.js). ${layer.why}`
  }
  if (layer.packages.includes(packageName(source))) return null
  return `${packageName(source)} is not on ${layer.name}'s allow-list (eslint/layers.js). ${layer.why}`
}

export const layersPlugin = {
  rules: {
    'allowed-imports': {
      meta: { type: 'problem', schema: [], messages: { refused: '{{reason}}' } },
      create(context) {
        const file = relative(ROOT, context.filename).split('\\').join('/')
        const layer = layerOf(file)
        // Fail closed: code that no layer names would otherwise be checked by nothing.
        if (!layer) {
          return {
            Program(node) {
              const reason = `No layer in eslint/layers.js names ${file}: say where this code may run by adding it to one.`
              context.report({ node, messageId: 'refused', data: { reason } })
            }
          }
        }
        const checkSource = (node, source) => {
          if (source.type !== 'Literal' || typeof source.value !== 'string') {
            const reason = `${layer.name} may load a module only by a literal name, which its allow-list can check.`
            context.report({ node, messageId: 'refused', data: { reason } })
            return
          }
          const reason = refusal(layer, file, source.value)
          if (reason) context.report({ node: source, messageId: 'refused', data: { reason } })
        }
        const check = (node) => node.source && checkSource(node, node.source)
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: (node) => checkSource(node, node.source),
          // require() and require.resolve() load code too (CommonJS, or an ESM module that made one with createRequire).
          CallExpression(node) {
            const callee = node.callee
            const isRequire =
              (callee.type === 'Identifier' && callee.name === 'require') ||
              (callee.type === 'MemberExpression' &&
                callee.object.type === 'Identifier' &&
                callee.object.name === 'require' &&
                callee.property.type === 'Identifier' &&
                callee.property.name === 'resolve')
            if (!isRequire) return
            if (node.arguments.length === 0) return
            checkSource(node, node.arguments[0])
          }
        }
      }
    }
  }
}
