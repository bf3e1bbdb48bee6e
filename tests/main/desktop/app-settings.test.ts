import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppSettings } from '../../../src/main/desktop/app-settings'
import { tempDirPerTest } from '../temp-dir-per-test'

const tmp = tempDirPerTest('app-settings')

describe('app settings', () => {
  it('start with updates off and the tray notice not yet given', async () => {
    const settings = await AppSettings.open(tmp.dir, () => {})
    expect(settings.updates).toEqual({ enabled: false, feedUrl: null })
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
