import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CacheStore } from '../../../src/main/infra/cache/store'
import { ExportJobs } from '../../../src/main/domain/export/export-jobs'
import { startBrowserModeServer, type BrowserModeServer } from '../../../src/main/web/server'
import type { ExportProgress } from '../../../src/shared/ipc/channels/export'
import { BRIDGE_EXPORT_PATH, TOKEN_HEADER } from '../../../src/shared/ipc/wire'
import { makeTransactions } from '../infra/cache/fixtures'
import { stubBackend } from './stub-backend'

function get(port: number, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('browser mode: downloading a finished export', () => {
  let server: BrowserModeServer
  let dir: string
  let store: CacheStore
  let jobs: ExportJobs
  const events: ExportProgress[] = []
  const deletions = new Map<string, { deleted: Promise<void>; resolve: () => void }>()
  const deletion = (id: string) => {
    let entry = deletions.get(id)
    if (!entry) {
      let resolve!: () => void
      const deleted = new Promise<void>((r) => (resolve = r))
      entry = { deleted, resolve }
      deletions.set(id, entry)
    }
    return entry
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paydesk-export-web-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html>')
    store = (await CacheStore.open(join(dir, 'cache.db'), randomBytes(32))).store
    await store.put('transactions', makeTransactions(120, 3))
    jobs = new ExportJobs({ downloadDir: join(dir, 'exports'), emit: (p) => events.push(p), log: () => {} })
    // The server deletes a download after its response has closed, which the page cannot see: the test waits for the
    // deletion itself.
    const takeDownload: ExportJobs['takeDownload'] = (id) => {
      const download = jobs.takeDownload(id)
      return download && { ...download, done: () => download.done().then(deletion(id).resolve) }
    }
    const backend = stubBackend({ exports: { takeDownload } as ExportJobs })
    server = await startBrowserModeServer({ backend, subscribe: backend.subscribe, rendererDir: dir, log: () => {} })
  })
  afterAll(async () => {
    await server.close()
    await jobs.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const ended = (id: string) =>
    new Promise<ExportProgress>((resolve) => {
      const poll = setInterval(() => {
        const last = events.filter((e) => e.exportId === id).at(-1)
        if (last && last.state !== 'running') {
          clearInterval(poll)
          resolve(last)
        }
      }, 10)
    })

  it('hands the CSV over once, only with the token, from the page’s own origin and host, then deletes it', async () => {
    const started = await jobs.startTransactions(store, {
      filter: { type: 'INCOMING' },
      sort: { field: 'createdAt', direction: 'asc' }
    })
    expect(started.delivery).toBe('download')
    const id = started.exportId!
    expect(await ended(id)).toMatchObject({ state: 'done', written: started.total })
    const host = `127.0.0.1:${server.port}`
    const path = BRIDGE_EXPORT_PATH + id

    expect((await get(server.port, path, { host })).status).toBe(403)
    expect((await get(server.port, path, { host, [TOKEN_HEADER]: 'wrong' })).status).toBe(403)
    expect(
      (await get(server.port, path, { host, [TOKEN_HEADER]: server.token, origin: 'http://evil.example' })).status
    ).toBe(403)
    expect(
      (await get(server.port, path, { host: `localhost:${server.port}`, [TOKEN_HEADER]: server.token })).status
    ).toBe(403)

    const ok = await get(server.port, path, { host, [TOKEN_HEADER]: server.token, origin: server.origin })
    expect(ok.status).toBe(200)
    expect(ok.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/)
    expect(ok.headers['content-disposition']).toMatch(/^attachment; filename="paydesk-transactions-.*\.csv"$/)
    expect(ok.body.split('\r\n').filter(Boolean)).toHaveLength(started.total + 1)

    // Once: a second request finds nothing, and the file is gone from disk.
    expect((await get(server.port, path, { host, [TOKEN_HEADER]: server.token })).status).toBe(404)
    await deletion(id).deleted
    expect(existsSync(join(dir, 'exports')) ? readdirSync(join(dir, 'exports')) : []).toEqual([])
  })

  it('cancelling a finished download nobody fetched deletes it', async () => {
    const started = await jobs.startTransactions(store, { filter: {}, sort: { field: 'amount', direction: 'desc' } })
    await ended(started.exportId!)
    jobs.cancel(started.exportId!)
    // cancel() starts the deletion and does not wait for it: wait for the file to go, for as long as a loaded disk needs.
    await vi.waitFor(() => expect(readdirSync(join(dir, 'exports'))).toEqual([]), { timeout: 15_000, interval: 10 })
    const response = await get(server.port, BRIDGE_EXPORT_PATH + started.exportId!, {
      host: `127.0.0.1:${server.port}`,
      [TOKEN_HEADER]: server.token
    })
    expect(response.status).toBe(404)
  })
})
