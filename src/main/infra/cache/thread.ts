import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker, type MessagePort } from 'node:worker_threads'

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

/** A cache thread's answer to one request. */
export type ThreadAnswer<T> = { id: number } & ({ ok: true; value: T } | { ok: false; message: string; code?: string })

/**
 * Inside a cache thread: answers each request from main with `handle`'s value, or with the error it threw. A request
 * whose op is `close` ends the thread's port once answered (`handle` closes the connection).
 */
export function answerRequests<R extends { id: number; op: string }>(
  port: MessagePort,
  handle: (request: R) => unknown
) {
  port.on('message', (request: R) => {
    let answer: ThreadAnswer<unknown>
    try {
      answer = { id: request.id, ok: true, value: handle(request) }
    } catch (error) {
      // The message only: SQLite's errors never carry the key, and nothing of the request is echoed.
      const { message, code } = error as { message?: string; code?: string }
      answer = { id: request.id, ok: false, message: message ?? String(error), ...(code !== undefined && { code }) }
    }
    port.postMessage(answer)
    if (request.op === 'close') port.close()
  })
}

/** On main: settles the request an answer is for, rejecting with the thread's error as it was thrown there. */
export function settleAnswer<T>(
  waiter: { resolve: (value: T) => void; reject: (error: Error) => void } | undefined,
  answer: ThreadAnswer<T>
): void {
  if (!waiter) return
  if (answer.ok) waiter.resolve(answer.value)
  else waiter.reject(Object.assign(new Error(answer.message), answer.code !== undefined && { code: answer.code }))
}
