import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SavedViewFiles } from '../../../src/main/domain/saved-views'
import type { NoticeDraft } from '../../../src/main/infra/damage'
import { tempDir } from '../helpers'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('saved-views')))
afterEach(() => cleanup())

const FILTERS = { status: 'FAILED', currency: 'USD', sort: 'amount:desc' }
const fileOf = (profile: string) => path.join(dir, 'profiles', profile, 'saved-views.json')

describe('SavedViewFiles', () => {
  it('saves, replaces by name, removes, and keeps them across a restart, per profile', async () => {
    const views = new SavedViewFiles(dir, () => {})
    expect(await views.list('local')).toEqual([])
    await views.save('local', { name: 'Failed USD', filters: FILTERS })
    await views.save('local', { name: 'Incoming', filters: { type: 'INCOMING' } })
    // Same name, any case: replaced in its place.
    await views.save('local', { name: 'failed usd', filters: { ...FILTERS, sort: 'createdAt:desc' } })
    expect((await views.list('local')).map((v) => v.name)).toEqual(['failed usd', 'Incoming'])
    expect(await views.list('other')).toEqual([])

    const restarted = new SavedViewFiles(dir, () => {})
    expect(await restarted.list('local')).toEqual([
      { name: 'failed usd', filters: { ...FILTERS, sort: 'createdAt:desc' } },
      { name: 'Incoming', filters: { type: 'INCOMING' } }
    ])
    expect(await restarted.remove('local', 'Incoming')).toEqual([
      { name: 'failed usd', filters: { ...FILTERS, sort: 'createdAt:desc' } }
    ])
    expect((await new SavedViewFiles(dir, () => {}).list('local')).map((v) => v.name)).toEqual(['failed usd'])
  })

  it('refuses a nameless view and an unknown name, changing nothing', async () => {
    const views = new SavedViewFiles(dir, () => {})
    await views.save('local', { name: 'Kept', filters: {} })
    await expect(views.save('local', { name: '   ', filters: {} })).rejects.toThrow(/name/)
    await expect(views.remove('local', 'Missing')).rejects.toThrow('There is no view named “Missing”')
    expect((await views.list('local')).map((v) => v.name)).toEqual(['Kept'])
  })

  it('two quick saves both land, in order', async () => {
    const views = new SavedViewFiles(dir, () => {})
    await Promise.all([
      views.save('local', { name: 'One', filters: {} }),
      views.save('local', { name: 'Two', filters: {} })
    ])
    const onDisk = JSON.parse(await fs.readFile(fileOf('local'), 'utf8')) as { views: { name: string }[] }
    expect(onDisk.views.map((v) => v.name)).toEqual(['One', 'Two'])
  })

  it('a damaged file is set aside and told, and the profile starts with no views', async () => {
    await fs.mkdir(path.dirname(fileOf('local')), { recursive: true })
    await fs.writeFile(fileOf('local'), '{"version":1,"views":[{"name":')
    const told: NoticeDraft[] = []
    const views = new SavedViewFiles(
      dir,
      () => {},
      (notice) => told.push(notice)
    )
    expect(await views.list('local')).toEqual([])
    expect(told).toHaveLength(1)
    expect(told[0]).toMatchObject({ kind: 'damaged-file', profileId: 'local' })
    expect(told[0]!.title).toBe('The saved transaction views were damaged.')
    const kept = (await fs.readdir(path.dirname(fileOf('local')))).filter((f) => f.startsWith('saved-views.json.'))
    expect(kept).toHaveLength(1)
    await views.save('local', { name: 'Fresh', filters: {} })
    expect((await new SavedViewFiles(dir, () => {}).list('local')).map((v) => v.name)).toEqual(['Fresh'])
  })
})
