import { afterEach, beforeEach } from 'vitest'
import { tempDir } from './helpers'

/** A fresh temp folder for every test of the file, removed after it; read `dir` inside tests. */
export function tempDirPerTest(label: string): { readonly dir: string } {
  const current = { dir: '' }
  let cleanup: () => Promise<void> = async () => {}
  beforeEach(async () => {
    ;({ dir: current.dir, cleanup } = await tempDir(label))
  })
  afterEach(() => cleanup())
  return current
}
