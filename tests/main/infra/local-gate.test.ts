/**
 * The Local profile runs its own approval gate beside its sandbox (src/main/infra/local-gate.ts), both real
 * processes: the sandbox's webhookEndpoint points at the gate, a simulated incoming payment is answered 202 and
 * prompted on the operator stream read with the token from the keychain, the secrets are made once and reused, and a
 * gate process that dies is told and started again. Every wait holds an event (a stream entry, an exit), never a sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/main/infra/app-error'
import { LocalProfile } from '../../../src/main/app/local-profile'
import { secretAccount, type SecretStore } from '../../../src/main/infra/keychain'
import { LOCAL_GATE_KEY_ACCOUNT, LOCAL_GATE_TOKEN_ACCOUNT } from '../../../src/main/infra/local-gate'
import { ProfileStore } from '../../../src/main/domain/profiles'
import { nodeSandboxLauncher, type SandboxLauncher, type SandboxProcess } from '../../../src/main/infra/child-launcher'
import { GateEvent } from '../../../src/shared/gate'
import { LOCAL_PROFILE_ID } from '../../../src/shared/profile'
import { tempDir } from '../helpers'

/** The keychain in memory: what the gate keeps there, and how often it was written, are read by the tests. */
function memorySecrets(): SecretStore & { values: Map<string, string>; writes: string[] } {
  const values = new Map<string, string>()
  const writes: string[] = []
  return {
    values,
    writes,
    get: async (a) => values.get(a),
    set: async (a, v) => {
      writes.push(a)
      values.set(a, v)
    },
    delete: async (a) => void values.delete(a),
    accounts: async () => [...values.keys()]
  }
}

/** Node launchers that keep the gate processes they start, so a test can kill one. */
function watchedLauncher(): { launcher: SandboxLauncher; gates: SandboxProcess[] } {
  const gates: SandboxProcess[] = []
  return {
    gates,
    launcher: (kind) => {
      const child = nodeSandboxLauncher(kind)
      if (kind === 'gate') gates.push(child)
      return child
    }
  }
}

/** An operator's event stream: each entry as it arrives, awaited by kind. */
async function operatorStream(url: string, token: string) {
  const controller = new AbortController()
  const res = await fetch(`${url}/operator/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal
  })
  expect(res.status).toBe(200)
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  const seen: GateEvent[] = []
  return {
    async next(kind: string, match: (e: GateEvent) => boolean = () => true): Promise<GateEvent> {
      for (;;) {
        const found = seen.findIndex((e) => e.kind === kind && match(e))
        if (found >= 0) return seen.splice(found, 1)[0] as GateEvent
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffered += decoder.decode(value, { stream: true })
        let end: number
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end)
          buffered = buffered.slice(end + 2)
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n')
          if (data) seen.push(GateEvent.parse(JSON.parse(data)))
        }
      }
    },
    close: () => controller.abort()
  }
}

let dir: { dir: string; cleanup: () => Promise<void> }
const secrets = memorySecrets()
const watched = watchedLauncher()
let profiles: ProfileStore
let local: LocalProfile | undefined

async function boot(): Promise<LocalProfile> {
  profiles = await ProfileStore.open(dir.dir, secrets)
  local = LocalProfile.begin({ dataDir: dir.dir, profiles, secrets, launcher: watched.launcher, log: () => {} }, true)
  return local
}

/** A call to the Local sandbox with the Local profile's credentials. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON, checked by the assertions
async function sandbox(method: string, route: string, body?: unknown): Promise<any> {
  const profile = profiles.get(LOCAL_PROFILE_ID)
  const secret = secrets.values.get(secretAccount(LOCAL_PROFILE_ID)) as string
  const res = await fetch(`${profile.baseUrl}${route}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${profile.tokenId}:${secret}`).toString('base64')}`,
      ...(body !== undefined && { 'content-type': 'application/json' })
    },
    ...(body !== undefined && { body: JSON.stringify(body) })
  })
  expect(res.status, `${method} ${route}`).toBe(200)
  return res.json()
}

beforeAll(async () => {
  dir = await tempDir('local-gate')
})
afterAll(async () => {
  await local?.close()
  await dir.cleanup()
})

describe('the Local profile’s approval gate', () => {
  it('starts beside the sandbox, which sends its approval webhook there: a payment is answered 202 and prompted', async () => {
    const l = await boot()
    const { url, token } = await l.gate()
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    // The token is the one kept in the keychain; the gate was given it over IPC, never on its command line.
    expect(token).toBe(secrets.values.get(LOCAL_GATE_TOKEN_ACCOUNT))
    expect(secrets.values.get(LOCAL_GATE_KEY_ACCOUNT)).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    expect((await sandbox('GET', '/config')).webhookEndpoint).toBe(`${url}/webhooks`)

    const stream = await operatorStream(url, token)
    try {
      const jane = (await sandbox('GET', '/customers?platformCustomerId=cust-jane-smith')).data[0]
      const payment = await sandbox('POST', '/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        customerId: jane.id,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 12_345
      })
      // A fresh gate asks a person about every payment: 202 to the service, a prompt to the operators.
      const prompt = await stream.next('prompt', (e) => JSON.stringify(e).includes(payment.id))
      expect(JSON.stringify(prompt)).toContain(payment.id)
      // The answer is counted once it is sent, just after the prompt is logged: read until it is (bounded, no sleep
      // before a single look).
      const answered = async () =>
        /gate_webhooks_total\{status="202"\} 1\b/.test(await (await fetch(`${url}/metrics`)).text())
      const until = Date.now() + 20_000
      while (!(await answered()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
      expect(await answered()).toBe(true)
    } finally {
      stream.close()
    }
  }, 120_000)

  it('has demo receiver information for the seeded customers, and keeps its secrets across a restart', async () => {
    const before = await (local as LocalProfile).gate()
    const jane = (await sandbox('GET', '/customers?platformCustomerId=cust-jane-smith')).data[0]
    const info = await fetch(`${before.url}/operator/receiver-info/${encodeURIComponent(jane.id)}`, {
      headers: { authorization: `Bearer ${before.token}` }
    })
    expect(info.status).toBe(200)
    expect(((await info.json()) as { info: unknown }).info).toMatchObject({
      FULL_NAME: 'Jane Smith',
      BIRTH_DATE: '1990-01-15'
    })
    const written = secrets.writes.length
    await (local as LocalProfile).close()
    local = undefined

    const again = await (await boot()).gate()
    expect(again.token).toBe(before.token)
    // Nothing new in the keychain: the token and the receiver information key were made once.
    expect(secrets.writes.slice(written).filter((a) => a.includes('local-gate'))).toEqual([])
    const rules = await fetch(`${again.url}/operator/rules`, { headers: { authorization: `Bearer ${again.token}` } })
    expect(rules.status).toBe(200)
  }, 120_000)

  it('a gate process that dies is told, started again, and the sandbox still points at it', async () => {
    const l = local as LocalProfile
    const first = await l.gate()
    const told = new Promise<string>((resolve) => l.onGateExit(resolve))
    const victim = watched.gates.at(-1) as SandboxProcess
    victim.kill()
    expect(await told).toMatch(/stopped unexpectedly .*being started again/)
    const next = await l.gate()
    expect(next.token).toBe(first.token)
    expect((await fetch(`${next.url}/healthz`)).status).toBe(200)
    expect((await sandbox('GET', '/config')).webhookEndpoint).toBe(`${next.url}/webhooks`)
    expect(watched.gates.at(-1)).not.toBe(victim)
  }, 120_000)

  it('says why there is no gate when the embedded sandbox is switched off', async () => {
    const off = await tempDir('local-gate-off')
    try {
      const p = await ProfileStore.open(off.dir, memorySecrets())
      const l = LocalProfile.begin({ dataDir: off.dir, profiles: p, secrets: memorySecrets(), log: () => {} }, false)
      const refused = await l.gate().catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(AppError)
      expect((refused as AppError).message).toMatch(
        /Local approval gate is not running: the embedded sandbox is switched off/
      )
      await l.close()
    } finally {
      await off.cleanup()
    }
  })
})
