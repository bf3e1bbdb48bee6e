import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { extractFile, listPackage, statFile } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { ensureFreshBuild } from '../support/fresh-build'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { fuses } from '../../build/fuses.cjs'
import { APP_ID } from '../../src/main/electron/app-id'

const root = resolve(import.meta.dirname, '../..')
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & {
  appId: string
  linux: { target: string[]; executableName: string }
  mac: { target: string[]; hardenedRuntime: boolean; entitlements: string; entitlementsInherit: string }
  win: { target: string[]; signtoolOptions: { publisherName: string[] } }
  publish: { provider: string; url: string }
}

// Electron's own defaults for the eight fuses of wire v1 (RunAsNode on, cookie encryption off, …): what the stand-in
// binary starts with, so that the test sees each listed fuse really flipped by the afterPack hook.
const ELECTRON_DEFAULT_WIRE = '10110001'
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
// A fuse's state is one ASCII byte on the wire ('0' off, '1' on); @electron/fuses does not export its FuseState.
const ON = '1'.charCodeAt(0)
const OFF = '0'.charCodeAt(0)

/** An executable file laid out like Electron's where @electron/fuses looks: the sentinel, version 1, length, states. */
function standInElectronDist(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true })
  mkdirSync(join(dir, 'locales'), { recursive: true })
  const body = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in for the Electron binary (packaging test)"\nexit 1\n'),
    Buffer.alloc(4096, 0),
    Buffer.from(SENTINEL),
    Buffer.from([1, ELECTRON_DEFAULT_WIRE.length]),
    Buffer.from(ELECTRON_DEFAULT_WIRE),
    Buffer.alloc(4096, 0)
  ])
  writeFileSync(join(dir, 'electron'), body, { mode: 0o755 })
  writeFileSync(join(dir, 'LICENSE'), 'stand-in\n')
  // The version electron-builder packs for: the Electron npm installed.
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string
  }
  writeFileSync(join(dir, 'version'), version)
}

const realElectron = (() => {
  try {
    const bin = readFileSync(join(root, 'node_modules/electron/path.txt'), 'utf8').trim()
    return existsSync(join(root, 'node_modules/electron/dist', bin))
  } catch {
    return false
  }
})()

describe('packaged app (electron-builder, linux dir target)', () => {
  let work: string
  let appOut: string
  let files: string[]

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'paydesk-packaging-'))
    const output = join(work, 'dist')
    // Nothing is downloaded: not Electron (a local distribution), not its headers (no rebuild in the stand-in mode);
    // electron-builder's own tools come from npm packages (app-builder-bin).
    const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CSC_IDENTITY_AUTO_DISCOVERY: 'false' }
    let run: ReturnType<typeof spawnSync>
    if (realElectron) {
      console.log('packaging test: npm run dist -- --linux --dir (a real Electron distribution is installed)')
      run = spawnSync('npm', ['run', 'dist', '--', '--linux', '--dir', `-c.directories.output=${output}`], {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 600_000
      })
    } else {
      console.log(
        'packaging test: the same configuration packed against a stand-in electronDist with npmRebuild off (the Electron distribution cannot be fetched here)'
      )
      ensureFreshBuild()
      const dist = join(work, 'electron-dist')
      standInElectronDist(dist)
      run = spawnSync(
        process.execPath,
        [
          join(root, 'node_modules/electron-builder/cli.js'),
          '--linux',
          '--dir',
          '--x64',
          '--publish',
          'never',
          `-c.electronDist=${dist}`,
          '-c.npmRebuild=false',
          `-c.directories.output=${output}`
        ],
        { cwd: root, env, encoding: 'utf8', timeout: 300_000 }
      )
    }
    appOut = join(output, 'linux-unpacked')
    if (run.status !== 0 || !existsSync(join(appOut, 'resources/app.asar')))
      throw new Error(`electron-builder failed (${run.status}):\n${run.stdout}\n${run.stderr}`)
    files = listPackage(join(appOut, 'resources/app.asar'), { isPack: false }).map((f) => f.split('\\').join('/'))
  }, 600_000)

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it('the asar holds the built app, its resources and the production dependencies', () => {
    for (const path of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/sandbox-process.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/resources/icon.png',
      '/node_modules/keytar/package.json',
      '/node_modules/better-sqlite3-multiple-ciphers/lib/index.js',
      '/node_modules/undici/package.json',
      '/node_modules/zod/package.json',
      '/node_modules/react/package.json'
    ])
      expect(files, path).toContain(path)
    const topLevel = new Set(files.map((f) => f.split('/')[1]))
    expect([...topLevel].sort()).toEqual(['node_modules', 'out', 'package.json', 'resources'])
  })

  it('the asar holds no source, tests, source maps, .env, data or development packages', () => {
    const forbidden = [
      /^\/(src|tests|e2e|bench|scripts|docs|build|dist|test-results)\//,
      /\.map$/,
      /(^|\/)\.env/,
      /\.(db|db-wal|db-shm|sqlite)$/,
      /\.(c|cc|cpp|h|gyp|o)$/,
      /^\/node_modules\/\./, // .bin, .cache, the Node 22 test toolchain
      /^\/node_modules\/(electron|electron-builder|vitest|typescript|vite|eslint|@playwright|tsx|@electron)\//,
      /^\/node_modules\/(better-sqlite3-multiple-ciphers|keytar)\/(deps|src)\//,
      /\/build\/(Makefile|config\.gypi|Release\/obj)|test_extension\.node$/
    ]
    const offending = files.filter((f) => forbidden.some((pattern) => pattern.test(f)))
    expect(offending).toEqual([])
  })

  it('unpacks the native addons beside the asar, where Electron loads them from', () => {
    const asar = join(appOut, 'resources/app.asar')
    for (const addon of [
      'node_modules/keytar/build/Release/keytar.node',
      'node_modules/better-sqlite3-multiple-ciphers/build/Release/better_sqlite3.node'
    ]) {
      expect(statFile(asar, addon, false), addon).toMatchObject({ unpacked: true })
      const unpacked = join(appOut, 'resources/app.asar.unpacked', addon)
      expect(existsSync(unpacked), unpacked).toBe(true)
      expect(readFileSync(unpacked).subarray(0, 4).toString('latin1')).toBe('\x7fELF')
    }
    // Only the packages that carry an addon are unpacked (electron-builder keeps each one whole, so the addon's
    // loader finds it); the app itself stays inside the archive.
    const unpackedFiles = listUnpacked(join(appOut, 'resources/app.asar.unpacked'))
    const addonPackages = /^node_modules\/(keytar|better-sqlite3-multiple-ciphers)\//
    expect(unpackedFiles.filter((f) => !addonPackages.test(f))).toEqual([])
  })

  it('writes the update configuration electron-updater verifies a Windows update with: a publisher, a generic feed', () => {
    // Without a publisherName in resources/app-update.yml, electron-updater skips the installer's signature check.
    expect(config.win.signtoolOptions.publisherName.length).toBeGreaterThan(0)
    expect(config.win.signtoolOptions.publisherName.every((name) => name.trim() !== '')).toBe(true)
    // The generic provider is the one Settings' feed URL replaces through setFeedURL (src/main/electron/updater.ts).
    expect(config.publish.provider).toBe('generic')
    expect(new URL(config.publish.url).protocol).toBe('https:')
    const written = join(appOut, 'resources/app-update.yml')
    if (existsSync(written)) expect(parse(readFileSync(written, 'utf8'))).toMatchObject({ provider: 'generic' })
  })

  it('ships the package.json whose main is the built main process', () => {
    const pkg = JSON.parse(extractFile(join(appOut, 'resources/app.asar'), 'package.json').toString()) as {
      main: string
    }
    expect(pkg.main).toBe('out/main/index.js')
    expect(files).toContain(`/${pkg.main}`)
  })

  it('flips the fuses of build/fuses.cjs in the packed binary, leaving the others at Electron’s defaults', async () => {
    const binary = join(appOut, config.linux.executableName)
    const wire = await getCurrentFuseWire(binary)
    const options = FuseV1Options as unknown as Record<string, number>
    const listed = new Set<number>()
    for (const [name, enabled] of Object.entries(fuses)) {
      const index = options[name]
      expect(index, `unknown fuse ${name}`).toBeTypeOf('number')
      listed.add(index!)
      expect(wire[index as FuseV1Options], name).toBe(enabled ? ON : OFF)
    }
    if (!realElectron)
      for (let i = 0; i < ELECTRON_DEFAULT_WIRE.length; i++)
        if (!listed.has(i)) expect(wire[i as FuseV1Options]).toBe(ELECTRON_DEFAULT_WIRE.charCodeAt(i))
  })

  it('the fuse list hardens the binary as the security review asks', () => {
    expect(fuses).toEqual({
      RunAsNode: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      EnableCookieEncryption: true,
      GrantFileProtocolExtraPrivileges: false
    })
  })
})

function listUnpacked(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listUnpacked(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]
  )
}

describe('installer configuration (electron-builder.yml)', () => {
  it('uses the app id the main process gives Windows as its AppUserModelID', () => {
    expect(config.appId).toBe(APP_ID)
  })

  it('signs macOS builds with the hardened runtime and entitlements that allow V8’s JIT only', () => {
    expect(config.mac.hardenedRuntime).toBe(true)
    const plist = readFileSync(join(root, config.mac.entitlements), 'utf8')
    expect(plist).toContain('<key>com.apple.security.cs.allow-jit</key>')
    expect(plist).not.toContain('disable-library-validation')
    expect(plist).not.toContain('allow-dyld-environment-variables')
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements)
  })
})
