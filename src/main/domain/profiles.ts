import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import {
  DEFAULT_BASE_URL,
  LOCAL_PROFILE_ID,
  ProfileCreateInput as ProfileCreateInputSchema,
  ProfileEnvironment,
  ProfileId,
  type ProfileList,
  type ProfileUpdateInput,
  type ProfileView
} from '../../shared/profile'
import { AppError } from '../infra/app-error'
import { readFileIfExists, setAside, writeFileAtomic } from '../infra/atomic-file'
import { cacheKeyAccount, gateTokenAccount, secretAccount, type SecretStore } from '../infra/keychain'
import type { ReportDamage } from './notices'
import { Sequencer } from '../infra/sequencer'

/**
 * What is persisted about a profile: everything except the secret, which lives only in the OS keychain. A profile
 * written when Paydesk still assumed how long the service keeps a key names that window (idempotencyWindowHours):
 * it is read and dropped.
 */
const StoredProfile = z.object({
  id: ProfileId,
  name: z.string(),
  environment: ProfileEnvironment,
  baseUrl: z.string(),
  tokenId: z.string(),
  /** The profile's approval gate (not a secret; its operator token is in the keychain). Absent: no gate. */
  gateUrl: z.string().optional()
})
export type StoredProfile = z.infer<typeof StoredProfile>

const PROFILES_FILE_VERSION = 1
const ProfilesFile = z.object({
  version: z.literal(PROFILES_FILE_VERSION),
  activeProfileId: ProfileId,
  profiles: z.array(StoredProfile)
})
type ProfilesFile = z.infer<typeof ProfilesFile>

const LOCAL_PROFILE_NAME = 'Local sandbox'

/** Folder of everything Paydesk keeps for one profile (cache, transfer journal). */
export function profileDir(dataDir: string, profileId: string): string {
  return path.join(dataDir, 'profiles', ProfileId.parse(profileId))
}

/**
 * Profiles: `<dataDir>/profiles.json` (written atomically) plus one keychain entry per profile for the client secret.
 * The "Local sandbox" profile always exists, is the default, and cannot be removed.
 */
export class ProfileStore {
  private state!: ProfilesFile
  private readonly file: string
  /** Every mutation goes through this chain so two concurrent IPC calls never interleave their writes. */
  private readonly sequencer = new Sequencer()

  private constructor(
    private readonly dataDir: string,
    private readonly secrets: SecretStore,
    private readonly log: (message: string) => void,
    private readonly reportDamage: ReportDamage
  ) {
    this.file = path.join(dataDir, 'profiles.json')
  }

  static async open(
    dataDir: string,
    secrets: SecretStore,
    log: (m: string) => void = () => {},
    reportDamage: ReportDamage = () => {}
  ): Promise<ProfileStore> {
    const store = new ProfileStore(dataDir, secrets, log, reportDamage)
    await store.load()
    return store
  }

  /** The saved list, or undefined when there is none or it was damaged (then set aside, kept, and reported). */
  private async read(): Promise<ProfilesFile | undefined> {
    let raw: Buffer | undefined
    let text: unknown
    try {
      raw = await readFileIfExists(this.file)
      if (!raw) return undefined
      text = JSON.parse(raw.toString('utf8'))
    } catch {
      return this.setAsideDamaged()
    }
    const version = (text as { version?: unknown } | null)?.version
    if (typeof version === 'number' && version > PROFILES_FILE_VERSION) {
      // Rewriting it would drop what the newer version added: refuse, and change nothing.
      throw new AppError(
        'CONFLICT',
        `${this.file} was written by a newer Paydesk (profile list format ${version}; this version reads ` +
          `${PROFILES_FILE_VERSION}). Update Paydesk to use these profiles. Nothing was changed.`
      )
    }
    const parsed = ProfilesFile.safeParse(text)
    return parsed.success ? parsed.data : this.setAsideDamaged()
  }

  private async setAsideDamaged(): Promise<undefined> {
    const where = await setAside(this.file, 'corrupt')
    this.log(`profiles.json was unreadable and was set aside${where ? ` as ${path.basename(where)}` : ''}`)
    this.reportDamage({
      kind: 'profile-list',
      title: 'The list of profiles was damaged.',
      lost:
        'Paydesk could not read your profiles (names, environments, base URLs, token ids); only the Local sandbox is ' +
        'listed. Their secrets stay in the keychain and their caches and transfer journals stay on disk.',
      todo: 'Add the profiles again in Settings, or restore the kept file from a backup while Paydesk is closed.',
      ...(where !== undefined && { setAsideAs: where })
    })
    return undefined
  }

  private async load(): Promise<void> {
    const parsed = await this.read()
    const state: ProfilesFile = parsed ?? { version: 1, activeProfileId: LOCAL_PROFILE_ID, profiles: [] }
    if (!state.profiles.some((p) => p.id === LOCAL_PROFILE_ID)) {
      state.profiles.unshift({
        id: LOCAL_PROFILE_ID,
        name: LOCAL_PROFILE_NAME,
        environment: 'local',
        baseUrl: 'http://127.0.0.1',
        tokenId: `local-${randomBytes(8).toString('hex')}`
      })
    }
    if (!state.profiles.some((p) => p.id === state.activeProfileId)) state.activeProfileId = LOCAL_PROFILE_ID
    this.state = state
    if (!parsed || JSON.stringify(parsed) !== JSON.stringify(state)) await this.persist(state)
  }

  private async persist(next: ProfilesFile): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify(next, null, 2))
    this.state = next
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.sequencer.run(work)
  }

  get activeProfileId(): string {
    return this.state.activeProfileId
  }

  /** The stored profile or NOT_FOUND. */
  get(id: string): StoredProfile {
    const found = this.state.profiles.find((p) => p.id === id)
    if (!found) throw new AppError('NOT_FOUND', `There is no profile with id "${id}".`)
    return { ...found }
  }

  all(): StoredProfile[] {
    return this.state.profiles.map((p) => ({ ...p }))
  }

  async view(id: string): Promise<ProfileView> {
    // The gate's link is the gate channels' to tell (gate.link), with its state.
    const { gateUrl: _gate, ...p } = this.get(id)
    const secret = await this.secrets.get(secretAccount(p.id))
    return { ...p, hasSecret: secret !== undefined && secret.length > 0 }
  }

  async list(): Promise<ProfileList> {
    const profiles = await Promise.all(this.state.profiles.map((p) => this.view(p.id)))
    return { activeProfileId: this.state.activeProfileId, profiles }
  }

  /** The secret, for main-process use only (the API client). Never returned through a channel. */
  async secretOf(id: string): Promise<string | undefined> {
    this.get(id)
    return this.secrets.get(secretAccount(id))
  }

  create(input: z.output<typeof ProfileCreateInputSchema>): Promise<ProfileView> {
    return this.serial(async () => {
      let id: string
      do id = `p-${randomBytes(4).toString('hex')}`
      while (this.state.profiles.some((p) => p.id === id))
      const profile: StoredProfile = {
        id,
        name: input.name,
        environment: input.environment,
        baseUrl: stripTrailingSlash(input.baseUrl ?? DEFAULT_BASE_URL),
        tokenId: input.tokenId
      }
      // Keychain first: if it fails, nothing was written. If the file write fails, the secret is taken back out.
      if (input.clientSecret !== undefined) await this.secrets.set(secretAccount(id), input.clientSecret)
      try {
        await this.persist({ ...this.state, profiles: [...this.state.profiles, profile] })
      } catch (error) {
        if (input.clientSecret !== undefined) await this.secrets.delete(secretAccount(id)).catch(() => {})
        throw error
      }
      return this.view(id)
    })
  }

  update(input: ProfileUpdateInput): Promise<ProfileView> {
    return this.serial(async () => {
      const current = this.get(input.id)
      if (current.environment === 'local' && (input.environment || input.baseUrl || input.tokenId)) {
        throw new AppError(
          'INVALID_INPUT',
          'The Local sandbox profile points at the sandbox built into Paydesk; only its name can change.'
        )
      }
      const next: StoredProfile = {
        ...current,
        ...(input.name !== undefined && { name: input.name }),
        ...(input.environment !== undefined && { environment: input.environment }),
        ...(input.baseUrl !== undefined && { baseUrl: stripTrailingSlash(input.baseUrl) }),
        ...(input.tokenId !== undefined && { tokenId: input.tokenId })
      }
      if (next.environment !== current.environment && input.confirmEnvironmentChange !== true) {
        throw new AppError('CONFIRMATION_REQUIRED', environmentChangeWarning(current, next.environment))
      }
      // A secret belongs to the endpoint and token it was entered for: sent to a new base URL it would hand the
      // credentials to whoever answers there. It is deleted before the new address is saved, so a failure between the
      // two leaves a profile without a secret, never a secret pointed at the new host.
      const endpointChanged = next.baseUrl !== current.baseUrl || next.tokenId !== current.tokenId
      if (endpointChanged) await this.secrets.delete(secretAccount(current.id))
      await this.persist({ ...this.state, profiles: this.state.profiles.map((p) => (p.id === next.id ? next : p)) })
      if (endpointChanged)
        this.log(`profile ${current.id}: base URL or token id changed, so its stored secret was removed`)
      if (next.environment !== current.environment)
        this.log(`profile ${current.id}: environment changed from ${current.environment} to ${next.environment}`)
      return this.view(next.id)
    })
  }

  /** Internal: the local sandbox moves to a new free port on every start. */
  setLocalBaseUrl(baseUrl: string): Promise<void> {
    return this.serial(async () => {
      const current = this.get(LOCAL_PROFILE_ID)
      if (current.baseUrl === baseUrl) return
      const next = { ...current, baseUrl }
      await this.persist({ ...this.state, profiles: this.state.profiles.map((p) => (p.id === next.id ? next : p)) })
    })
  }

  /** Links the profile to an approval gate (undefined: unlinks it). The token is kept by the caller, in the keychain. */
  setGateUrl(id: string, gateUrl: string | undefined): Promise<void> {
    return this.serial(async () => {
      const { gateUrl: _old, ...current } = this.get(id)
      const next: StoredProfile = { ...current, ...(gateUrl !== undefined && { gateUrl }) }
      await this.persist({ ...this.state, profiles: this.state.profiles.map((p) => (p.id === id ? next : p)) })
    })
  }

  /** Removes the profile, its secret, its cache key, its gate token and its folder (cache, journal). */
  remove(id: string): Promise<ProfileList> {
    return this.serial(async () => {
      const current = this.get(id)
      if (current.id === LOCAL_PROFILE_ID) {
        throw new AppError('INVALID_INPUT', 'The Local sandbox profile is built in and cannot be removed.')
      }
      // Keychain first: if it fails, the profile is still listed and removing it again finishes the job; a removed
      // profile never leaves its secret behind.
      await this.secrets.delete(secretAccount(id))
      await this.secrets.delete(cacheKeyAccount(id))
      await this.secrets.delete(gateTokenAccount(id))
      const activeProfileId = this.state.activeProfileId === id ? LOCAL_PROFILE_ID : this.state.activeProfileId
      await this.persist({ ...this.state, activeProfileId, profiles: this.state.profiles.filter((p) => p.id !== id) })
      await fs.rm(profileDir(this.dataDir, id), { recursive: true, force: true })
      return this.list()
    })
  }

  switch(id: string): Promise<ProfileList> {
    return this.serial(async () => {
      this.get(id)
      if (this.state.activeProfileId !== id) await this.persist({ ...this.state, activeProfileId: id })
      return this.list()
    })
  }

  setSecret(id: string, clientSecret: string, opts: { internal?: boolean } = {}): Promise<ProfileView> {
    return this.serial(async () => {
      const current = this.get(id)
      if (current.environment === 'local' && !opts.internal) {
        throw new AppError('INVALID_INPUT', 'The Local sandbox profile uses credentials Paydesk generates for it.')
      }
      await this.secrets.set(secretAccount(id), clientSecret)
      return this.view(id)
    })
  }

  clearSecret(id: string): Promise<ProfileView> {
    return this.serial(async () => {
      const current = this.get(id)
      if (current.environment === 'local') {
        throw new AppError('INVALID_INPUT', 'The Local sandbox profile uses credentials Paydesk generates for it.')
      }
      await this.secrets.delete(secretAccount(id))
      return this.view(id)
    })
  }
}

function environmentChangeWarning(current: StoredProfile, to: string): string {
  const consequence =
    to === 'production'
      ? 'Its payments will move real money, and each one will ask for confirmation.'
      : 'Its payments will no longer ask for the production confirmation, though its base URL may still move real money.'
  return `“${current.name}” would change from ${current.environment} to ${to}. ${consequence} Confirm to change it.`
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '')
}
