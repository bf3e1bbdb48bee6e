import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { setAside, writeFileAtomic } from '../../../src/main/infra/atomic-file'
import { tempDirPerTest } from '../temp-dir-per-test'

const tmp = tempDirPerTest('atomic')

describe('writeFileAtomic', () => {
  it('replaces the content and leaves no temp file behind', async () => {
    const file = path.join(tmp.dir, 'sub', 'x.json')
    await writeFileAtomic(file, 'one')
    await writeFileAtomic(file, 'two')
    expect(await readFile(file, 'utf8')).toBe('two')
    expect(await readdir(path.join(tmp.dir, 'sub'))).toEqual(['x.json'])
  })

  it('on failure keeps the old content and cleans its temp file', async () => {
    const target = path.join(tmp.dir, 'taken')
    await mkdir(target) // renaming a file over a directory fails
    await expect(writeFileAtomic(target, 'new')).rejects.toThrow()
    expect(await readdir(tmp.dir)).toEqual(['taken'])
  })
})

describe('setAside', () => {
  it('renames a damaged file with a reason and a time, and ignores a missing one', async () => {
    const file = path.join(tmp.dir, 'state.json')
    await writeFile(file, 'garbage')
    const where = await setAside(file, 'corrupt')
    expect(where).toMatch(/state\.json\.corrupt-\d{4}-/)
    expect(await readFile(where!, 'utf8')).toBe('garbage')
    expect(await setAside(file, 'corrupt')).toBeUndefined()
  })
})
