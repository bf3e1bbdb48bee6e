import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// docs/ARCHITECTURE.md's folder map is what a newcomer reads first: it must be the tree, not a memory of it.
const root = resolve(import.meta.dirname, '../..')

/** The renderer's screens and components nest freely below its first level; everything else is mapped to the leaf. */
const MAPPED_DEPTH: Record<string, number> = { 'src/renderer/src': 1 }

/** Folders under `dir` that hold a file at any depth (git keeps no empty folder, so neither does the map). */
function folders(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(join(root, dir)).sort()) {
    const path = `${dir}/${entry}`
    if (!statSync(join(root, path)).isDirectory() || !holdsFiles(path)) continue
    out.push(path)
    const limit = Object.entries(MAPPED_DEPTH).find(([base]) => path.startsWith(`${base}/`))
    if (!limit || path.slice(limit[0].length + 1).split('/').length < limit[1]) out.push(...folders(path))
  }
  return out
}

function holdsFiles(dir: string): boolean {
  return readdirSync(join(root, dir)).some(
    (e) => !statSync(join(root, dir, e)).isDirectory() || holdsFiles(`${dir}/${e}`)
  )
}

/** The folders the map's table names, in its first column. */
function mappedFolders(): string[] {
  const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8')
  const section = doc.slice(doc.indexOf('## Folder map'), doc.indexOf('\n## ', doc.indexOf('## Folder map') + 1))
  return [...section.matchAll(/^\| `(src\/[^`]*)\/` /gm)].map((m) => m[1]!)
}

describe("ARCHITECTURE.md's folder map", () => {
  it('names every folder under src, and only those', () => {
    expect(mappedFolders().sort()).toEqual(folders('src').sort())
  })

  it('reads the table it is about', () => {
    expect(mappedFolders()).toContain('src/main/handlers')
    expect(mappedFolders().length).toBeGreaterThan(30)
  })
})
