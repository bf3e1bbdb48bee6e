/* eslint-disable @typescript-eslint/no-explicit-any -- recorded events are read by assertions */
/**
 * Paydesk's gate links against a real approval gate (tests/gate/harness.ts: the gate in-process with a temp SQLite, in
 * front of a real Local sandbox, both on one manual clock), reached through a TCP relay the test can cut, as a network
 * would. Nothing waits on time: tests await the event they expect (a link state, a stream entry, a notification) and
 * hold the follower's reconnect (its backoff) to act between two connections.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { createKeytarStore, type SecretStore } from '../../../../src/main/infra/keychain'
import { ProfileStore } from '../../../../src/main/domain/profiles'
import { GateLinks, type ManagedGate } from '../../../../src/main/domain/gate/gate-links'
import { gateHandlers } from '../../../../src/main/handlers/gate'
import { dispatch, type Handlers } from '../../../../src/main/handlers/dispatch'
import type { AppNotification } from '../../../../src/main/domain/notifications/batch'
import { startRig, type Rig } from '../../../gate/harness'
import { testKeychainService } from '../../../support/keyring'
import { tempDir } from '../../helpers'

export interface Seen {
  event: string
  payload: any
}

/** Everything the links emit and notify, in order, with a way to wait for the next match. */
export function recorder() {
  const seen: Seen[] = []
  const waiters: { from: number; match: (s: Seen) => boolean; resolve: (s: Seen) => void }[] = []
  const record = (event: string, payload: unknown) => {
    seen.push({ event, payload })
    for (const w of [...waiters]) {
      const hit = seen.slice(w.from).find(w.match)
      if (hit) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(hit)
      }
    }
  }
  /** The first record from index `from` on that matches (already seen, or when it comes). */
  const until = (match: (s: Seen) => boolean, from = 0): Promise<Seen> => {
    const hit = seen.slice(from).find(match)
    return hit ? Promise.resolve(hit) : new Promise((resolve) => waiters.push({ from, match, resolve }))
  }
  return { seen, record, until, mark: () => seen.length }
}

/** A TCP relay in front of the gate: `cut()` drops every connection (the gate keeps running). */
export async function relay(port: number) {
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1')
    for (const [s, other] of [
      [client, upstream],
      [upstream, client]
    ] as const) {
      sockets.add(s)
      // One side gone (refused, reset, closed): the other goes too, as a connection through a network would.
      s.on('close', () => {
        sockets.delete(s)
        other.destroy()
      })
      s.on('error', () => s.destroy())
    }
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: () => {
      for (const s of sockets) s.destroy()
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}

export interface LinksRig {
  rig: Rig
  profiles: ProfileStore
  secrets: SecretStore
  links: GateLinks
  handlers: Pick<Handlers, Extract<keyof Handlers, `gate.${string}`>>
  rec: ReturnType<typeof recorder>
  /** The follower is waiting to reconnect (attempt n); `release()` lets every waiting one go. */
  release(): void
  call(channel: string, input?: unknown): Promise<any>
  gateUrl: string
  cut(): void
  names: Map<string, string>
  close(options?: { gateStopped?: boolean }): Promise<void>
}

export async function linksRig(
  o: { environment?: 'sandbox' | 'production'; managed?: (id: string) => Promise<ManagedGate | null> } = {}
): Promise<LinksRig> {
  const rig = await startRig()
  const net = await relay(Number(new URL(rig.gate.url).port))
  const { dir, cleanup } = await tempDir('gate-links')
  const secrets = createKeytarStore(testKeychainService('gate-links'))
  const profiles = await ProfileStore.open(dir, secrets)
  const created = await profiles.create({
    name: 'Acme',
    environment: o.environment ?? 'sandbox',
    baseUrl: 'https://api.example.com/2025-10-13',
    tokenId: 'tok_1'
  })
  await profiles.switch(created.id)
  const rec = recorder()
  const held: (() => void)[] = []
  const names = new Map<string, string>()
  const links = new GateLinks({
    profiles,
    secrets,
    resolveManaged: o.managed ?? (async () => null),
    emit: (event, payload) => rec.record(event, payload),
    notify: (n: AppNotification) => rec.record('notify', n),
    customerName: (_profileId, customerId) => names.get(customerId) ?? null,
    log: () => {},
    backoff: (attempt, signal) =>
      new Promise<void>((resolve) => {
        held.push(resolve)
        signal.addEventListener('abort', () => resolve(), { once: true })
        rec.record('backoff', { attempt })
      })
  })
  links.start()
  const handlers = gateHandlers({
    profiles,
    links,
    active: () => Promise.reject(new Error('no session in these tests'))
  })
  return {
    rig,
    profiles,
    secrets,
    links,
    handlers,
    rec,
    names,
    gateUrl: net.url,
    cut: net.cut,
    release: () => held.splice(0).forEach((r) => r()),
    call: (channel, input) => dispatch(handlers as Handlers, channel, input ?? null),
    close: async ({ gateStopped = false } = {}) => {
      await links.close()
      await net.close()
      if (gateStopped) await rig.sb.close()
      else await rig.close()
      await cleanup()
    }
  }
}
