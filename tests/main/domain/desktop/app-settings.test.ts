import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppSettings } from '../../../../src/main/domain/desktop/app-settings'
import { tempDirPerTest } from '../../temp-dir-per-test'

const tmp = tempDirPerTest('app-settings')

describe('app settings', () => {
  it('start with updates off, the system theme, local times and the tray notice not yet given', async () => {
    const settings = await AppSettings.open(tmp.dir, () => {})
    expect(settings.updates).toEqual({ enabled: false, feedUrl: null })
    expect(settings.appearance).toEqual({ theme: 'system', timeZone: 'local' })
    expect(settings.keptInTrayAnnounced).toBe(false)
  })

  it('remember the update feed and that the tray notice was given, across launches', async () => {
    const first = await AppSettings.open(tmp.dir, () => {})
    await first.setUpdates({ enabled: true, feedUrl: 'https://updates.example.com/paydesk' })
    await first.markKeptInTrayAnnounced()
    const again = await AppSettings.open(tmp.dir, () => {})
    expect(again.updates).toEqual({ enabled: true, feedUrl: 'https://updates.example.com/paydesk' })
    expect(again.keptInTrayAnnounced).toBe(true)
  })

  it('keep the theme and time zone across launches, and read a file written before they existed as the defaults', async () => {
    const file = path.join(tmp.dir, 'app-settings.json')
    const older = { version: 1, updates: { enabled: false, feedUrl: null }, keptInTrayAnnounced: true }
    await writeFile(file, JSON.stringify(older))
    const first = await AppSettings.open(tmp.dir, () => {})
    expect(first.appearance).toEqual({ theme: 'system', timeZone: 'local' })
    expect(first.keptInTrayAnnounced).toBe(true)
    await first.setAppearance({ theme: 'dark', timeZone: 'utc' })
    const again = await AppSettings.open(tmp.dir, () => {})
    expect(again.appearance).toEqual({ theme: 'dark', timeZone: 'utc' })
    expect(again.keptInTrayAnnounced).toBe(true)
  })

  it('refuse a theme it does not know and change nothing', async () => {
    const settings = await AppSettings.open(tmp.dir, () => {})
    await expect(settings.setAppearance({ theme: 'sepia', timeZone: 'utc' } as never)).rejects.toThrow()
    expect(settings.appearance).toEqual({ theme: 'system', timeZone: 'local' })
    expect(await readdir(tmp.dir)).toEqual([])
  })

  it('refuse a plain-http feed and change nothing', async () => {
    const settings = await AppSettings.open(tmp.dir, () => {})
    await expect(settings.setUpdates({ enabled: true, feedUrl: 'http://updates.example.com/' })).rejects.toThrow()
    expect(settings.updates.enabled).toBe(false)
    expect(await readdir(tmp.dir)).toEqual([])
  })

  it('set an unreadable or tampered file aside and fall back to updates off', async () => {
    const file = path.join(tmp.dir, 'app-settings.json')
    const tampered = {
      version: 1,
      updates: { enabled: true, feedUrl: 'http://evil.example/' },
      keptInTrayAnnounced: true
    }
    await writeFile(file, JSON.stringify(tampered))
    const logs: string[] = []
    const settings = await AppSettings.open(tmp.dir, (m) => logs.push(m))
    expect(settings.updates).toEqual({ enabled: false, feedUrl: null })
    expect(logs).toEqual(['app-settings.json was unreadable and was set aside; updates are off'])
    const kept = (await readdir(tmp.dir)).filter((f) => f !== 'app-settings.json')
    expect(kept).toHaveLength(1)
    expect(JSON.parse(await readFile(path.join(tmp.dir, kept[0]!), 'utf8'))).toEqual(tampered)
  })
})
