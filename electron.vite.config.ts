import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin, Rollup } from 'vite'

/**
 * Build warnings known to be harmless, by Rollup's code and the package they come from: zod's sources carry comments
 * with a `@__PURE__` annotation in a place Rollup cannot use (it drops the comment, nothing else changes). Everything
 * else is printed as usual, so a new kind of warning still shows on `npm start` and in CI.
 */
export const HARMLESS_BUILD_WARNINGS: readonly { code: string; from: RegExp }[] = [
  { code: 'INVALID_ANNOTATION', from: /[\\/]node_modules[\\/]zod[\\/]/ }
]

/** Rollup's onwarn for every part of the build: the harmless ones above are dropped, the rest go to `warn`. */
export function onBuildWarning(warning: Rollup.RollupLog, warn: (warning: Rollup.RollupLog) => void): void {
  const where = warning.id ?? warning.loc?.file ?? ''
  if (HARMLESS_BUILD_WARNINGS.some((h) => h.code === warning.code && h.from.test(where))) return
  warn(warning)
}

/**
 * The page's one script blocks its first paint until it has run (blocking="render"): it puts the theme chosen in
 * Settings on <html> before anything is drawn (stores/appearance.ts), so a start never flashes the other theme. Vite
 * writes that script tag itself, so the attribute goes onto the tag it wrote.
 */
export const renderBlockingScript: Plugin = {
  name: 'paydesk-render-blocking-script',
  transformIndexHtml: {
    order: 'post',
    handler: (html) =>
      html.replace('<script type="module" crossorigin', '<script type="module" blocking="render" crossorigin')
  }
}

export default defineConfig({
  main: {
    // Main loads its npm dependencies (keytar is native) from node_modules at run time instead of bundling them, except
    // the ones it loads at start-up or on the first poll: undici's files took main's thread 0.5-0.8 s to resolve and
    // compile one by one under a cold start's load, and the operator's first click met it (api-client.ts says which).
    plugins: [externalizeDepsPlugin({ exclude: ['zod', 'undici'] })],
    build: {
      outDir: 'out/main',
      // undici probes for node:sqlite with a require inside a try (lib/util/runtime-features.js); bundled as a static
      // import it stops main from loading at all on Node 20, which has no node:sqlite. Left as a require, the probe
      // fails quietly there as undici intends.
      commonjsOptions: { ignore: ['node:sqlite'] },
      rollupOptions: {
        onwarn: onBuildWarning,
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // Browser mode's entry (npm run web, e2e, bench): started with plain node, it skips tsx's compile-on-load.
          web: resolve(__dirname, 'src/main/web/cli.ts'),
          // The Local sandbox runs in a process of its own (utilityProcess in the app, a Node fork in browser mode).
          'sandbox-process': resolve(__dirname, 'src/sandbox/process-entry.ts'),
          // The approval gate as production runs it (node out/main/gate.js): no tsx loader held in its memory.
          gate: resolve(__dirname, 'src/gate/cli.ts'),
          'gate-process': resolve(__dirname, 'src/gate/process-entry.ts'),
          // The gate's SQLite checkpointer, a worker thread: WAL checkpoints never run inside a commit on its event loop.
          'gate-checkpoint': resolve(__dirname, 'src/gate/store/sqlite-checkpoint-thread.ts'),
          // The cache's writer thread (a worker_threads Worker of main): bulk writes never block main's event loop.
          'cache-writer': resolve(__dirname, 'src/main/infra/cache/write-thread.ts'),
          // The cache's reader thread: the transaction views' queries never run on main's event loop.
          'cache-reader': resolve(__dirname, 'src/main/infra/cache/read-thread.ts')
        }
      }
    }
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        onwarn: onBuildWarning,
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot load ES modules: emit CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react(), renderBlockingScript],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves every process unminified by default; the page's start-up parses all of this script.
      minify: 'esbuild',
      rollupOptions: { onwarn: onBuildWarning, input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    }
  }
})
