import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { profileDir } from '../../../src/main/domain/profiles'
import type { Notice } from '../../../src/shared/notice'
import { requireRealKeyring } from '../../support/keyring'
import { addProfile, backendAgainstSandbox, moneySetup, startBackend, waitFor } from '../sandbox-env'

requireRealKeyring()

/*
 * The audit's damaged files, one by one: each is set aside (kept), and the operator is told at once, in a notice the
 * renderer shows as a banner, with what was lost and what to do.
 */
// One keychain service per test: entries of another test's profiles would be (rightly) reported as orphaned.
const env = backendAgainstSandbox('damage', { keychainPerTest: true })

const restart = async () => {
  await env.h.close()
  env.h = await startBackend(env.dir, env.service, { autoSync: false })
}
const notices = () => env.h.call('notices.list', null) as Promise<Notice[]>
const damage = (file: string) => writeFile(file, Buffer.from('PDSEAL01 this is not what Paydesk wrote'))

async function profileWithUnknownTransfer() {
  const view = await addProfile(env.h, env.server)
  const { internalId, externalId } = await moneySetup(env.server)
  const drop = env.server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
  await env.h.raw('transfers.send', {
    actionId: randomUUID(),
    sourceAccountId: internalId,
    destinationAccountId: externalId,
    amount: 1_500
  })
  env.server.faults.remove(drop.id)
  return view.id as string
}

describe('damaged state is loud, and nothing is lost with it', () => {
  it('a damaged transfer journal: set aside, and the operator told what was lost and what to do', async () => {
    const id = await profileWithUnknownTransfer()
    const file = path.join(profileDir(env.dir, id), 'transfers.sealed')
    await env.h.close()
    await damage(file)
    env.h = await startBackend(env.dir, env.service, { autoSync: false })
    expect((await env.h.call('transfers.journal', null)).records).toEqual([])
    const [notice] = await notices()
    expect(notice).toMatchObject({ kind: 'transfer-journal', profileId: id })
    expect(notice!.lost).toMatch(/unknown/)
    expect(notice!.todo).toMatch(/Transactions/)
    expect(existsSync(notice!.setAsideAs!)).toBe(true)
    expect(env.h.events.some((e) => e.event === 'notices.changed')).toBe(true)
  })

  it('a damaged profile list: set aside, told, and the profiles it held reported as orphaned, not deleted', async () => {
    const id = await profileWithUnknownTransfer()
    await env.h.close()
    await writeFile(path.join(env.dir, 'profiles.json'), '{"version":1,"profiles":[{"id":')
    env.h = await startBackend(env.dir, env.service, { autoSync: false })
    const list = await notices()
    expect(list.map((n) => n.kind).sort()).toEqual(['orphaned-data', 'profile-list'])
    expect(existsSync(list.find((n) => n.kind === 'profile-list')!.setAsideAs!)).toBe(true)
    expect(list.find((n) => n.kind === 'orphaned-data')!.lost).toContain(id)
    expect(existsSync(path.join(profileDir(env.dir, id), 'transfers.sealed'))).toBe(true)
  })

  it('a profile list from a newer version is refused with a clear message, and nothing is rewritten', async () => {
    await addProfile(env.h, env.server)
    await env.h.close()
    const file = path.join(env.dir, 'profiles.json')
    const newer = JSON.stringify({ version: 2, activeProfileId: 'local', profiles: [], teams: ['ops'] })
    await writeFile(file, newer)
    await expect(startBackend(env.dir, env.service, { autoSync: false })).rejects.toThrow(
      /newer Paydesk.*Nothing was changed/
    )
    expect(await readFile(file, 'utf8')).toBe(newer)
    await writeFile(file, JSON.stringify({ version: 1, activeProfileId: 'local', profiles: [] }))
    env.h = await startBackend(env.dir, env.service, { autoSync: false })
  })

  it('a profile list that is a directory does not stop Paydesk: it is set aside and reported', async () => {
    await env.h.close()
    const file = path.join(env.dir, 'profiles.json')
    await rm(file)
    await mkdir(file)
    await writeFile(path.join(file, 'inside'), 'kept')
    env.h = await startBackend(env.dir, env.service, { autoSync: false })
    const [notice] = await notices()
    expect(notice).toMatchObject({ kind: 'profile-list' })
    expect(await readFile(path.join(notice!.setAsideAs!, 'inside'), 'utf8')).toBe('kept')
    expect((await env.h.call('profiles.list', null)).profiles.map((p) => p.id)).toEqual(['local'])
  })

  it('a notice stays until the operator dismisses it, across a restart', async () => {
    const id = await profileWithUnknownTransfer()
    await env.h.close()
    await damage(path.join(profileDir(env.dir, id), 'transfers.sealed'))
    env.h = await startBackend(env.dir, env.service, { autoSync: false })
    await env.h.call('transfers.journal', null)
    await restart()
    const notice = (await notices()).find((n) => n.kind === 'transfer-journal')
    expect(notice).toBeDefined()
    // The claim is about this notice: whatever else start-up may tell meanwhile (it opens the profile's cache and
    // journal beside these calls) is not what the operator dismissed.
    const ids = (list: Notice[]) => list.map((n) => n.id)
    expect(ids(await env.h.call('notices.dismiss', { id: notice!.id }))).not.toContain(notice!.id)
    await restart()
    expect(ids(await notices())).not.toContain(notice!.id)
  })
})

describe('removing a profile whose journal holds transfers of unknown outcome', () => {
  it('needs a confirmation that names them; without it nothing is removed', async () => {
    const id = await profileWithUnknownTransfer()
    await env.h.call('profiles.switch', { id: 'local' })
    const refused = (await env.h.raw('profiles.remove', { id })) as {
      ok: false
      error: { code: string; message: string }
    }
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } })
    expect(refused.error.message).toMatch(/1 transfer whose outcome is unknown: 1500 minor units to ExternalAccount:/)
    expect((await env.h.call('profiles.list', null)).profiles.some((p) => p.id === id)).toBe(true)
    await env.h.call('profiles.remove', { id, confirmUnknownTransfers: true })
    expect((await env.h.call('profiles.list', null)).profiles.some((p) => p.id === id)).toBe(false)
    expect(await readdir(path.join(env.dir, 'profiles'))).not.toContain(id)
    await waitFor(() => env.h.logs.some((l) => l.includes('removed with 1 unknown transfer')))
  })
})
