// Where code may run, as an allow-list per layer (docs/ARCHITECTURE.md): an import that is not on its layer's list
// fails lint. A new dependency is therefore a decision recorded here, not something any file can start using.
import { builtinModules } from 'node:module'
import { dirname, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

/**
 * Layers, most specific first. `code` lists the source folders a layer may import from; `packages` the npm packages
 * (or sub-paths of them); `builtins` the Node modules, named without the `node:` prefix. `exclude` and `notCode` carve
 * the Electron adapter out of main's files and out of what main's services may import.
 */
export const LAYERS = [
  {
    name: 'the Electron adapter',
    files: ['src/main/electron/', 'src/main/index.ts'],
    code: ['src/main/', 'src/shared/'],
    packages: ['electron', 'electron-updater', 'zod'],
    builtins: ['path', 'url'],
    why: 'Electron adapters stay thin: logic belongs in a service under src/main.'
  },
  {
    name: 'the SQLite binding',
    files: ['src/main/infra/cache/sqlite.ts'],
    code: ['src/main/', 'src/shared/'],
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
    code: ['src/main/', 'src/shared/'],
    packages: [],
    builtins: ['fs', 'path', 'url', 'worker_threads'],
    why: 'Only the cache starts threads: its writes and its long reads run there, off the event loop that serves the operator.'
  },
  {
    name: 'the sandbox launcher',
    files: ['src/main/infra/child-launcher.ts'],
    code: ['src/main/', 'src/shared/'],
    packages: [],
    builtins: ['child_process', 'fs', 'path'],
    why: 'Only the launcher starts a child process: the Local sandbox, outside the backend’s event loop.'
  },
  {
    name: 'the browser-mode edge',
    files: ['src/main/web/'],
    code: ['src/main/', 'src/shared/'],
    packages: [],
    builtins: ['crypto', 'fs', 'http', 'net', 'os', 'path', 'util'],
    why: 'Browser mode is the second edge beside Electron: it serves the page and the bridge, and composes the backend.'
  },
  {
    name: 'main',
    files: ['src/main/'],
    code: ['src/main/', 'src/shared/', 'src/sandbox/'],
    packages: ['zod', 'keytar', 'undici', 'csv-stringify', 'eventsource-parser'],
    builtins: [
      'crypto',
      'events',
      'fs',
      'fs/promises',
      'http',
      'net',
      'os',
      'path',
      'perf_hooks',
      'stream',
      'timers/promises',
      'url',
      'util'
    ],
    exclude: ['src/main/electron/', 'src/main/web/'],
    // The composition root and the two edges import main's code, never the reverse: a service that reached
    // backend.ts or web/ would tie itself to one way of running.
    notCode: ['src/main/electron/', 'src/main/index.ts', 'src/main/web/', 'src/main/app/backend.ts'],
    why: 'Main services never import electron (src/main/electron adapts them), the composition root (backend.ts) or the browser-mode edge (web/), nor renderer or preload code.'
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
    packages: ['zod', 'fastify', 'prom-client'],
    builtins: ['crypto', 'fs', 'net'],
    why: 'The approval gate runs on the platform’s server, apart from Paydesk: it shares only src/shared with it.'
  },
  {
    name: 'the sandbox’s SQLite binding',
    files: ['src/sandbox/state/sqlite.ts'],
    code: ['src/sandbox/', 'src/shared/'],
    packages: ['better-sqlite3-multiple-ciphers'],
    builtins: ['fs'],
    why: 'The sandbox opens its database through this one module, so a host can hand it the addon built for its ABI.'
  },
  {
    name: 'the sandbox',
    files: ['src/sandbox/'],
    code: ['src/sandbox/', 'src/shared/'],
    packages: ['zod'],
    builtins: ['crypto', 'fs', 'fs/promises', 'http', 'net', 'path', 'url', 'util'],
    why: 'The sandbox server stands alone: it runs without Paydesk.'
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
  return LAYERS.find(
    (layer) =>
      layer.files.some((prefix) => file === prefix || file.startsWith(prefix)) &&
      !(layer.exclude ?? []).some((prefix) => file.startsWith(prefix))
  )
}

/** Why `source`, imported from `file` (repo-relative), is refused; null when it is on the layer's list. */
export function refusal(layer, file, source) {
  if (source.startsWith('.')) {
    const target = relative(ROOT, resolve(ROOT, dirname(file), source))
      .split('\\')
      .join('/')
    const within = (prefix) => target === prefix.replace(/\/$/, '') || target.startsWith(prefix)
    const barred = (layer.notCode ?? []).some((prefix) => within(prefix) || within(prefix.replace(/\.ts$/, '')))
    if (layer.code.some(within) && !barred) return null
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
