import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  main: {
    // Main loads its npm dependencies (keytar is native) from node_modules at run time instead of bundling them.
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      // `web` is browser mode's entry (npm run web, e2e, bench): started with plain node, it skips tsx's compile-on-load.
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts'), web: resolve(__dirname, 'src/main/web/cli.ts') }
      }
    }
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot load ES modules: emit CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves every process unminified by default; the page's start-up parses all of this script.
      minify: 'esbuild',
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    }
  }
})
