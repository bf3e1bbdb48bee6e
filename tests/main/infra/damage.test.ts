import { randomUUID } from 'node:crypto'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lockDataDir } from '../../../src/main/infra/data-lock'
import { cacheKeyAccount, createKeytarStore } from '../../../src/main/infra/keychain'
import { profileDir } from '../../../src/main/domain/profiles'
import { sealJson } from '../../../src/main/infra/sealed-file'
import type { SandboxServer } from '../../../src/sandbox/server'
import type { Notice } from '../../../src/shared/notice'
import { requireRealKeyring, testKeychainService } from '../../support/keyring'
import { tempDir } from '../helpers'
import { addProfile, moneySetup, startBackend, startSandbox, type Harness } from '../sandbox-env'

requireRealKeyring()

/*
 * Every file and folder Paydesk keeps in its data folder, damaged in every way that applies: the app starts, the
 * profile's calls answer, a notice names what was set aside and where, and the damaged bytes are kept there.
 */

const service = testKeychainService('damage-kinds')
let server: SandboxServer
let template: { dir: string; cleanup: () => Promise<void> }
let profileId = ''
let key: Buffer

const GARBAGE = Buffer.from([0x50, 0x44, 0x53, 0x45, 0x41, 0x4c, 0, 0xff, 0xfe, 0x7b, 0x22, 0x0a])
const SETTINGS = { version: 1, updates: { enabled: false, feedUrl: null }, keptInTrayAnnounced: true }
const NOTICES = [{ id: 'old', kind: 'orphaned-data', at: '2025-01-01T00:00:00.000Z', title: 't', lost: 'l', todo: 'd' }]

beforeAll(async () => {
  server = await startSandbox()
  template = await tempDir('damage-template')
  const h = await startBackend(template.dir, service, { autoSync: false })
  profileId = (await addProfile(h, server)).id
  const { internalId, externalId } = await moneySetup(server)
  await h.call('transfers.send', {
    actionId: randomUUID(),
    sourceAccountId: internalId,
    destinationAccountId: externalId,
    amount: 1_000
  })
  await h.close()
  await writeFile(path.join(template.dir, 'app-settings.json'), JSON.stringify(SETTINGS))
  await writeFile(path.join(template.dir, 'notices.json'), JSON.stringify(NOTICES))
  key = Buffer.from((await createKeytarStore(service).get(cacheKeyAccount(profileId)))!, 'base64')
}, 60_000)

afterAll(async () => {
  await server?.close()
  await template?.cleanup()
})

type Kind = 'truncated' | 'garbage' | 'wrong shape' | 'empty' | 'folder'

/** Damages `target` one way; returns what a kept file must hold (a folder keeps a file named `inside`). */
async function damage(target: string, kind: Kind, wrongShape: () => Buffer): Promise<Buffer> {
  const bytes =
    kind === 'truncated'
      ? (await readFile(target)).subarray(0, Math.floor((await readFile(target)).length / 2))
      : kind === 'garbage'
        ? GARBAGE
        : kind === 'wrong shape'
          ? wrongShape()
          : kind === 'empty'
            ? Buffer.alloc(0)
            : Buffer.from('kept')
  await rm(target, { recursive: true, force: true })
  if (kind === 'folder') {
    await mkdir(target)
    await writeFile(path.join(target, 'inside'), bytes)
  } else await writeFile(target, bytes)
  return bytes
}

const json = (value: unknown) => () => Buffer.from(JSON.stringify(value))
const sealed = () => sealJson(key, { version: 1, something: 'else' })
const ALL: Kind[] = ['truncated', 'garbage', 'wrong shape', 'empty', 'folder']

interface Case {
  /** The damaged path, relative to the data folder ('' for the folder itself). */
  at: (dir: string) => string
  kinds: Kind[]
  wrongShape?: () => Buffer
  /** The path a notice is expected to have kept, when it is not `at` (the cache's journal files tell as the cache). */
  toldAs?: (dir: string) => string
  /** Checked before the backend starts: the lock is taken by the app's start, before the backend. */
  lock?: boolean
}

const inProfile = (name: string) => (dir: string) => path.join(profileDir(dir, profileId), name)
const CASES: Record<string, Case> = {
  'profiles.json': { at: (d) => path.join(d, 'profiles.json'), kinds: ALL, wrongShape: json({ version: 1 }) },
  'notices.json': { at: (d) => path.join(d, 'notices.json'), kinds: ALL, wrongShape: json([{ id: 1 }]) },
  'app-settings.json': { at: (d) => path.join(d, 'app-settings.json'), kinds: ALL, wrongShape: json({ a: 1 }) },
  'paydesk.lock': { at: (d) => path.join(d, 'paydesk.lock'), kinds: ['garbage', 'folder'], lock: true },
  'transfers.sealed': { at: inProfile('transfers.sealed'), kinds: ALL, wrongShape: sealed },
  // An empty file is a new SQLite database: not damage (below).
  'cache.db': { at: inProfile('cache.db'), kinds: ['truncated', 'garbage', 'folder'] },
  'cache.db-wal': { at: inProfile('cache.db-wal'), kinds: ['folder'], toldAs: inProfile('cache.db') },
  'cache.db-shm': { at: inProfile('cache.db-shm'), kinds: ['folder'], toldAs: inProfile('cache.db') }
}

/** A fresh copy of the template's data folder, damaged, then started as the app starts. */
async function startDamaged(at: (dir: string) => string, kind: Kind, c: Partial<Case>) {
  const t = await tempDir('damaged')
  await cp(template.dir, t.dir, { recursive: true })
  const target = at(t.dir)
  const wrote = await damage(target, kind, c.wrongShape ?? json({}))
  const release = c.lock || target === t.dir ? lockDataDir(t.dir) : () => {}
  const h = await startBackend(t.dir, service, { autoSync: false })
  return { dir: t.dir, target, wrote, h, done: async () => (await h.close(), release(), await t.cleanup()) }
}

async function expectToldAndKept(h: Harness, told: string, target: string, kind: Kind, wrote: Buffer) {
  const notices = (await h.call('notices.list', null)) as Notice[]
  const notice = notices.find((n) => n.setAsideAs?.startsWith(`${told}.`))
  expect(notice, `a notice for ${told} among ${JSON.stringify(notices.map((n) => n.title))}`).toBeDefined()
  expect(`${notice!.title} ${notice!.lost}`).toMatch(/damaged|set it aside/)
  const kept = (await readdir(path.dirname(target))).filter((f) => f.startsWith(`${path.basename(target)}.`))
  expect(kept).toHaveLength(1)
  const keptAt = path.join(path.dirname(target), kept[0]!)
  expect(await readFile(kind === 'folder' ? path.join(keptAt, 'inside') : keptAt)).toEqual(wrote)
}

async function expectTheProfileWorks(h: Harness) {
  expect((await h.call('profiles.list', null)).profiles.some((p) => p.id === 'local')).toBe(true)
  await h.call('transactions.query', { limit: 10 })
  await h.call('transfers.journal', null)
}

describe('damage of every kind is set aside and told', () => {
  for (const [name, c] of Object.entries(CASES)) {
    for (const kind of c.kinds) {
      it(`${name}: ${kind}`, async () => {
        const s = await startDamaged(c.at, kind, c)
        try {
          await expectTheProfileWorks(s.h)
          await expectToldAndKept(s.h, c.toldAs?.(s.dir) ?? s.target, s.target, kind, s.wrote)
        } finally {
          await s.done()
        }
      })
    }
  }

  it('an empty cache.db is a new database: the profile opens with nothing set aside', async () => {
    const s = await startDamaged(inProfile('cache.db'), 'empty', {})
    try {
      await expectTheProfileWorks(s.h)
      expect(await readdir(path.dirname(s.target))).not.toContainEqual(expect.stringMatching(/^cache\.db\./))
    } finally {
      await s.done()
    }
  })

  const folders: Record<string, (dir: string) => string> = {
    'the profile’s folder': (d) => profileDir(d, profileId),
    'the profiles folder': (d) => path.join(d, 'profiles'),
    'the data folder': (d) => d
  }
  for (const [name, at] of Object.entries(folders)) {
    it(`a file where ${name} should be`, async () => {
      const s = await startDamaged(at, 'garbage', {})
      try {
        await expectTheProfileWorks(s.h)
        const notices = (await s.h.call('notices.list', null)) as Notice[]
        const notice = notices.find((n) => n.setAsideAs?.startsWith(`${s.target}.`))
        expect(notice?.lost).toContain(s.target)
        expect(await readFile(notice!.setAsideAs!)).toEqual(GARBAGE)
      } finally {
        await s.done()
        for (const f of await readdir(path.dirname(s.dir)))
          if (f.startsWith(`${path.basename(s.dir)}.`)) await rm(path.join(path.dirname(s.dir), f), { force: true })
      }
    })
  }
})

describe('the Local sandbox’s saved state', () => {
  const states: Record<string, { at: (dir: string) => string; kind: Kind }> = {
    'garbage in its state file': { at: (d) => path.join(d, 'local-sandbox', 'state.db'), kind: 'garbage' },
    'a folder where its state file should be': { at: (d) => path.join(d, 'local-sandbox', 'state.db'), kind: 'folder' },
    'a file where its folder should be': { at: (d) => path.join(d, 'local-sandbox'), kind: 'garbage' }
  }
  for (const [name, { at, kind }] of Object.entries(states)) {
    it(`${name}: set aside, told, and the Local sandbox starts fresh`, async () => {
      const t = await tempDir('damaged-local')
      const target = at(t.dir)
      await mkdir(path.join(t.dir, 'local-sandbox'), { recursive: true })
      const wrote = await damage(target, kind, json({}))
      const h = await startBackend(t.dir, service, { autoSync: false, localSandbox: true })
      try {
        // The connection test waits for the sandbox's start, which is when its state was read.
        expect((await h.call('connection.test', { profileId: 'local' })).ok).toBe(true)
        await expectToldAndKept(h, target, target, kind, wrote)
      } finally {
        await h.close()
        await t.cleanup()
      }
      // The sandbox and its gate are two processes of their own: a loaded machine takes a while to start both.
    }, 90_000)
  }
})
