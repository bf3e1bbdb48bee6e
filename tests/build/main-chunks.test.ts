import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ensureFreshBuild } from '../support/fresh-build'

const root = resolve(import.meta.dirname, '../..')

describe('the built main process', () => {
  // Main loads some chunks only when first needed (undici at the first request), so a chunk that cannot load on this
  // Node line stays hidden until an operator's first sync fails "offline". undici 7.18+ probes for node:sqlite, and
  // bundled as a static import that probe stopped every request on Node 20. This suite also runs on Node 22.
  it('loads every chunk on this Node line', { timeout: 180_000 }, () => {
    ensureFreshBuild()
    const chunks = readdirSync(join(root, 'out/main/chunks')).filter((f) => f.endsWith('.js'))
    expect(chunks.length).toBeGreaterThan(0)
    const urls = chunks.map((f) => pathToFileURL(join(root, 'out/main/chunks', f)).href)
    // A child process: the chunks are ES modules built for plain Node, and importing them must not touch this worker.
    const script = `for (const u of ${JSON.stringify(urls)}) await import(u); console.log('loaded')`
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(output.trim()).toBe('loaded')
  })
})
