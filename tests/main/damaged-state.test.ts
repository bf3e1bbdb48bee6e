import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SandboxServer } from '../../src/sandbox/server'
import { profileDir } from '../../src/main/services/profiles'
import type { Notice } from '../../src/shared/notice'
import { requireRealKeyring } from '../support/keyring'
import { tempDir } from './helpers'
import {
  addProfile,
  moneySetup,
  startBackend,
  startSandbox,
  testKeychainService,
  waitFor,
  type Harness
} from './sandbox-env'

requireRealKeyring()

/*
 * The audit's damaged files, one by one: each is set aside (kept), and the operator is told at once, in a notice the
 * renderer shows as a banner, with what was lost and what to do.
 */
let server: SandboxServer
let h: Harness
let dir: string
let cleanup: () => Promise<void>
let service: string

beforeEach(async () => {
  // One keychain service per test: entries of another test's profiles would be (rightly) reported as orphaned.
  service = testKeychainService('damage')
  ;({ dir, cleanup } = await tempDir('damage'))
  server = await startSandbox()
  h = await startBackend(dir, service, { autoSync: false })
})
afterEach(async () => {
  await h.close()
  await server.close()
  await cleanup()
})

const restart = async () => {
  await h.close()
  h = await startBackend(dir, service, { autoSync: false })
}
const notices = () => h.call('notices.list', null) as Promise<Notice[]>
const damage = (file: string) => writeFile(file, Buffer.from('PDSEAL01 this is not what Paydesk wrote'))

async function profileWithUnknownTransfer() {
  const view = await addProfile(h, server)
  const { internalId, externalId } = await moneySetup(server)
  const drop = server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
  await h.raw('transfers.send', {
    actionId: randomUUID(),
    sourceAccountId: internalId,
    destinationAccountId: externalId,
    amount: 1_500
  })
  server.faults.remove(drop.id)
  return view.id as string
}

describe('damaged state is loud, and nothing is lost with it', () => {
  it('a damaged transfer journal: set aside, and the operator told what was lost and what to do', async () => {
    const id = await profileWithUnknownTransfer()
    const file = path.join(profileDir(dir, id), 'transfers.sealed')
    await h.close()
    await damage(file)
    h = await startBackend(dir, service, { autoSync: false })
    expect((await h.call('transfers.journal', null)).records).toEqual([])
    const [notice] = await notices()
    expect(notice).toMatchObject({ kind: 'transfer-journal', profileId: id })
    expect(notice!.lost).toMatch(/unknown/)
    expect(notice!.todo).toMatch(/Transactions/)
    expect(existsSync(notice!.setAsideAs!)).toBe(true)
    expect(h.events.some((e) => e.event === 'notices.changed')).toBe(true)
  })

  it('damaged approval rules stay off and say so', async () => {
    const view = await addProfile(h, server)
    await h.call('approvals.rules.set', {
      enabled: true,
      maxAmountByCurrency: { USD: 10_000 },
      allowedSenders: [],
      requireKycApproved: true
    })
    await h.close()
    await damage(path.join(profileDir(dir, view.id), 'approvals.sealed'))
    h = await startBackend(dir, service, { autoSync: false })
    expect((await h.call('approvals.rules.get', null)).enabled).toBe(false)
    const [notice] = await notices()
    expect(notice).toMatchObject({ kind: 'approval-rules', profileId: view.id })
    expect(notice!.title).toMatch(/OFF/)
    expect(existsSync(notice!.setAsideAs!)).toBe(true)
  })

  it('a damaged profile list: set aside, told, and the profiles it held reported as orphaned, not deleted', async () => {
    const id = await profileWithUnknownTransfer()
    await h.close()
    await writeFile(path.join(dir, 'profiles.json'), '{"version":1,"profiles":[{"id":')
    h = await startBackend(dir, service, { autoSync: false })
    const list = await notices()
    expect(list.map((n) => n.kind).sort()).toEqual(['orphaned-data', 'profile-list'])
    expect(existsSync(list.find((n) => n.kind === 'profile-list')!.setAsideAs!)).toBe(true)
    expect(list.find((n) => n.kind === 'orphaned-data')!.lost).toContain(id)
    expect(existsSync(path.join(profileDir(dir, id), 'transfers.sealed'))).toBe(true)
  })

  it('a profile list from a newer version is refused with a clear message, and nothing is rewritten', async () => {
    await addProfile(h, server)
    await h.close()
    const file = path.join(dir, 'profiles.json')
    const newer = JSON.stringify({ version: 2, activeProfileId: 'local', profiles: [], teams: ['ops'] })
    await writeFile(file, newer)
    await expect(startBackend(dir, service, { autoSync: false })).rejects.toThrow(/newer Paydesk.*Nothing was changed/)
    expect(await readFile(file, 'utf8')).toBe(newer)
    await writeFile(file, JSON.stringify({ version: 1, activeProfileId: 'local', profiles: [] }))
    h = await startBackend(dir, service, { autoSync: false })
  })

  it('a profile list that is a directory does not stop Paydesk: it is set aside and reported', async () => {
    await h.close()
    const file = path.join(dir, 'profiles.json')
    await rm(file)
    await mkdir(file)
    await writeFile(path.join(file, 'inside'), 'kept')
    h = await startBackend(dir, service, { autoSync: false })
    const [notice] = await notices()
    expect(notice).toMatchObject({ kind: 'profile-list' })
    expect(await readFile(path.join(notice!.setAsideAs!, 'inside'), 'utf8')).toBe('kept')
    expect((await h.call('profiles.list', null)).profiles.map((p) => p.id)).toEqual(['local'])
  })

  it('a notice stays until the operator dismisses it, across a restart', async () => {
    const id = await profileWithUnknownTransfer()
    await h.close()
    await damage(path.join(profileDir(dir, id), 'transfers.sealed'))
    h = await startBackend(dir, service, { autoSync: false })
    await h.call('transfers.journal', null)
    await restart()
    const [notice] = await notices()
    expect(notice).toBeDefined()
    expect(await h.call('notices.dismiss', { id: notice!.id })).toEqual([])
    await restart()
    expect(await notices()).toEqual([])
  })
})

describe('removing a profile whose journal holds transfers of unknown outcome', () => {
  it('needs a confirmation that names them; without it nothing is removed', async () => {
    const id = await profileWithUnknownTransfer()
    await h.call('profiles.switch', { id: 'local' })
    const refused = (await h.raw('profiles.remove', { id })) as { ok: false; error: { code: string; message: string } }
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } })
    expect(refused.error.message).toMatch(/1 transfer whose outcome is unknown: 1500 minor units to ExternalAccount:/)
    expect((await h.call('profiles.list', null)).profiles.some((p) => p.id === id)).toBe(true)
    await h.call('profiles.remove', { id, confirmUnknownTransfers: true })
    expect((await h.call('profiles.list', null)).profiles.some((p) => p.id === id)).toBe(false)
    expect(await readdir(path.join(dir, 'profiles'))).not.toContain(id)
    await waitFor(() => h.logs.some((l) => l.includes('removed with 1 unknown transfer')))
  })
})
