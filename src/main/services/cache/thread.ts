import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

/**
 * Starts one of the cache's threads: the built entry beside a built main (out/main, or out/main/chunks for code in a
 * shared chunk), or from source (tsx, vitest) the TypeScript entry, loaded through tsx's API because a worker does not
 * inherit its parent's loader.
 */
export function startCacheThread(built: string, source: string, workerData: unknown): Worker {
  for (const dir of [import.meta.dirname, path.dirname(import.meta.dirname)]) {
    const file = path.join(dir, built)
    if (existsSync(file)) return new Worker(file, { workerData })
  }
  const entry = path.join(import.meta.dirname, source)
  const boot = `require(require.resolve('tsx/esm/api', { paths: [${JSON.stringify(import.meta.dirname)}] }))
    .tsImport(${JSON.stringify(entry)}, ${JSON.stringify(pathToFileURL(entry).href)})`
  return new Worker(boot, { eval: true, workerData })
}
