import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The process boundaries of docs/ARCHITECTURE.md are enforced by lint; these cases prove each rule bites.
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') })

const BOUNDARY_RULES = ['layers/allowed-imports', 'no-restricted-imports', 'no-restricted-syntax']

async function boundaryMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '../..', file) })
  return result!.messages.filter((m) => BOUNDARY_RULES.includes(m.ruleId ?? '')).map((m) => m.message)
}

describe('lint boundaries', () => {
  // Each case names the file, the code, and what the refusal must say: a case refused for another reason (say, a file
  // no layer names) would otherwise pass while the rule it is about no longer fires.
  it.each([
    ['src/main/domain/x.ts', "import { app } from 'electron'", /electron is not on main's domain/],
    ['src/main/infra/x.ts', "import { ipcMain } from 'electron'", /electron is not on main's infrastructure/],
    ['src/main/domain/x.ts', "import { Worker } from 'node:worker_threads'", /worker_threads is not on main's domain/],
    ['src/main/electron/window.ts', "import { ipcMain } from 'electron'", /IPC wrappers/],
    ['src/renderer/src/x.ts', "import { createBackend } from '../../main/app/backend'", /renderer may not import/],
    ['src/renderer/src/x.ts', "import { readFileSync } from 'node:fs'", /fs is not on the renderer/],
    ['src/renderer/src/x.ts', "import { ipcRenderer } from 'electron'", /electron is not on the renderer/],
    ['src/shared/x.ts', "import { createHash } from 'node:crypto'", /crypto is not on shared/],
    ['src/shared/x.ts', "import path from 'path'", /path is not on shared/],
    ['src/shared/x.ts', "import { useState } from 'react'", /react is not on shared/],
    ['src/shared/x.ts', "import { x } from '../main/app/backend'", /shared may not import src\/main/],
    ['src/sandbox/http/x.ts', "import { app } from 'electron'", /electron is not on the sandbox’s HTTP edge/],
    [
      'src/sandbox/http/x.ts',
      "import { x } from '../../main/app/backend'",
      /HTTP edge \(http\/\) may not import src\/main/
    ],
    ['src/preload/x.ts', "import { readFileSync } from 'node:fs'", /fs is not on preload/],
    [
      'src/main/electron/window.ts',
      "import * as electron from 'electron'\nelectron.ipcMain.handle('x', () => 1)",
      /IPC wrappers/
    ],
    ['src/preload/other.ts', "import electron from 'electron'\nelectron.ipcRenderer.send('x')", /IPC wrappers/],
    // Fail closed: what no layer list names is refused, with no rule written for it.
    ['src/main/infra/x.ts', "import WebSocket from 'ws'", /ws is not on main's infrastructure/],
    ['src/main/domain/x.ts', "import { runInNewContext } from 'node:vm'", /vm is not on main's domain/],
    ['src/main/domain/x.ts', "import { request } from 'undici'", /undici is not on main's domain/],
    ['src/main/handlers/x.ts', "import keytar from 'keytar'", /keytar is not on main's handlers/],
    ['src/renderer/src/x.ts', "import { test } from '@playwright/test'", /@playwright\/test is not on the renderer/],
    ['src/renderer/src/x.ts', "const m = await import('undici')", /undici is not on the renderer/],
    ['src/shared/x.ts', "export { z } from 'zod/v4/core'\nexport * from 'react'", /react is not on shared/],
    [
      'src/main/domain/x.ts',
      "import { x } from '../../renderer/src/x'",
      /domain \(domain\/\) may not import src\/renderer/
    ],
    ['src/main/domain/x.ts', "import { x } from '../electron/app'", /may not import src\/main\/electron\/app/],
    ['src/main/electron/x.ts', "import { readFileSync } from 'node:fs'", /fs is not on the Electron adapter/],
    ['src/sandbox/state/x.ts', "import { request } from 'undici'", /undici is not on the sandbox’s state/],
    [
      'src/main/infra/cache/store.ts',
      "import Database from 'better-sqlite3-multiple-ciphers'",
      /better-sqlite3-multiple-ciphers is not on main's infrastructure/
    ],
    ['src/renderer/src/x.ts', "import Database from 'better-sqlite3-multiple-ciphers'", /not on the renderer/],
    // Stores keep only UI state: neither the bridge to main nor the query cache, nor a query hook.
    ['src/renderer/src/stores/x.ts', "import { paydesk } from '../bridge/paydesk'", /stores may not import .*bridge/],
    [
      'src/renderer/src/stores/x.ts',
      "import { queryClient } from '../data/query-client'",
      /stores may not import .*data/
    ],
    ['src/renderer/src/stores/x.ts', "import { useProfiles } from '../data/profiles'", /stores may not import .*data/],
    [
      'src/renderer/src/stores/x.ts',
      "import { useQuery } from '@tanstack/react-query'",
      /not on the renderer's stores/
    ],
    ['src/gate/domain/x.ts', "import { x } from '../../main/app/backend'", /approval gate may not import src\/main/],
    ['src/gate/domain/x.ts', "import { x } from '../../sandbox/server'", /approval gate may not import src\/sandbox/],
    ['src/gate/http/x.ts', "import { request } from 'undici'", /undici is not on the approval gate/],
    [
      'src/gate/store/sqlite-store.ts',
      "import Database from 'better-sqlite3-multiple-ciphers'",
      /better-sqlite3-multiple-ciphers is not on the approval gate/
    ],
    // Fail closed on what the import rules alone would miss: a file no layer names, at any depth.
    ['src/tools/x.ts', 'export const x = 1', /No layer in eslint\/layers.js names src\/tools\/x.ts/],
    ['src/x.ts', 'export const x = 1', /No layer .* names src\/x.ts/],
    ['src/main/services/x.ts', 'export const x = 1', /No layer .* names src\/main\/services\/x.ts/],
    ['src/main/x.ts', 'export const x = 1', /No layer .* names src\/main\/x.ts/],
    ['src/sandbox/x.ts', 'export const x = 1', /No layer .* names src\/sandbox\/x.ts/],
    ['src/main/infra/x.ts', "const ws = require('ws')", /ws is not on main's infrastructure/],
    ['src/main/infra/x.ts', "const p = require.resolve('ws')", /ws is not on main's infrastructure/],
    ['src/shared/x.ts', "const fs = require('node:fs')", /fs is not on shared/],
    ['src/main/domain/x.ts', "const name = 'ws'\nconst m = require(name)", /only by a literal name/],
    ['src/main/domain/x.ts', "const name = 'ws'\nconst m = await import(name)", /only by a literal name/],
    // Inside main: only app/ and the two edges reach app/ and web/, and each sub-layer looks only down.
    [
      'src/main/domain/x.ts',
      "import type { Backend } from '../app/backend'",
      /domain \(domain\/\) may not import src\/main\/app/
    ],
    [
      'src/main/infra/x.ts',
      "import { x } from '../app/backend'",
      /infrastructure \(infra\/\) may not import src\/main\/app/
    ],
    [
      'src/main/handlers/x.ts',
      "import type { ProfileSessions } from '../app/profile-sessions'",
      /handlers \(handlers\/\) may not import src\/main\/app/
    ],
    [
      'src/main/domain/gate/x.ts',
      "import { startBrowserModeServer } from '../../web/server'",
      /may not import src\/main\/web\/server/
    ],
    ['src/main/handlers/x.ts', "const s = await import('../web/server')", /may not import src\/main\/web\/server/],
    [
      'src/main/app/x.ts',
      "const s = require('../web/server')",
      /composition \(app\/\) may not import src\/main\/web\/server/
    ],
    [
      'src/main/handlers/quotes.ts',
      "import { homeHandlers } from './home'",
      /may not import src\/main\/handlers\/home/
    ],
    [
      'src/main/domain/x.ts',
      "import { quoteHandlers } from '../handlers/quotes'",
      /may not import src\/main\/handlers\/quotes/
    ],
    [
      'src/main/infra/x.ts',
      "import { TransferService } from '../domain/transfers'",
      /may not import src\/main\/domain\/transfers/
    ],
    [
      'src/main/infra/x.ts',
      "import type { Handlers } from '../handlers/dispatch'",
      /may not import src\/main\/handlers\/dispatch/
    ],
    ['src/main/web/x.ts', "import { app } from 'electron'", /electron is not on the browser-mode edge/],
    [
      'src/main/web/x.ts',
      "import { runElectronApp } from '../electron/app'",
      /browser-mode edge may not import src\/main\/electron/
    ],
    // The sandbox: http/ above engine/ above state/.
    [
      'src/sandbox/engine/x.ts',
      "import { Router } from '../http/router'",
      /engine \(engine\/\) may not import src\/sandbox\/http/
    ],
    [
      'src/sandbox/state/x.ts',
      "import { Engine } from '../engine/engine'",
      /state \(state\/\) may not import src\/sandbox\/engine/
    ],
    [
      'src/sandbox/state/x.ts',
      "import { x } from '../http/http'",
      /state \(state\/\) may not import src\/sandbox\/http/
    ],
    [
      'src/sandbox/engine/x.ts',
      "import { startSandbox } from '../server'",
      /engine \(engine\/\) may not import src\/sandbox\/server/
    ]
  ])('%s: %s is refused', async (file, code, reason) => {
    const messages = await boundaryMessages(file, code)
    expect(
      messages.some((m) => reason.test(m)),
      messages.join('\n') || 'no refusal'
    ).toBe(true)
  })

  it.each([
    ['src/main/electron/ipc.ts', "import { ipcMain } from 'electron'"],
    ['src/preload/index.ts', "import { ipcRenderer, contextBridge } from 'electron'"],
    ['src/main/electron/app.ts', "import { app, BrowserWindow } from 'electron'"],
    ['src/main/index.ts', "import { runElectronApp } from './electron/app'"],
    ['src/main/infra/x.ts', "import { request } from 'undici'"],
    ['src/shared/x.ts', "import { z } from 'zod'"],
    ['src/renderer/src/x.ts', "import { z } from 'zod'"],
    ['src/renderer/src/x.ts', "import { createRoot } from 'react-dom/client'"],
    ['src/renderer/src/x.ts', "import { money } from '../../shared/format/money'"],
    ['src/renderer/src/stores/x.ts', "import { create } from 'zustand'"],
    ['src/renderer/src/stores/x.ts', "import { useUi } from './ui'"],
    ['src/main/domain/x.ts', "import { createHash } from 'node:crypto'"],
    ['src/main/infra/x.ts', "import { BASE_PATH } from '../../sandbox/state/defaults'"],
    ['src/sandbox/http/x.ts', "import { createServer } from 'node:http'"],
    ['src/sandbox/http/x.ts', "import type { Engine } from '../engine/engine'"],
    ['src/sandbox/engine/x.ts', "import type { Store } from '../state/sandbox-store'"],
    ['src/main/infra/cache/sqlite.ts', "import Database from 'better-sqlite3-multiple-ciphers'"],
    ['src/gate/http/x.ts', "import Fastify from 'fastify'"],
    ['src/gate/domain/x.ts', "import { z } from '../../shared/gate'"],
    ['src/gate/store/sqlite-open.ts', "import Database from 'better-sqlite3-multiple-ciphers'"],
    ['src/main/web/x.ts', "import type { Backend } from '../app/backend'"],
    ['src/main/electron/x.ts', "import { createBackend } from '../app/backend'"],
    ['src/main/app/x.ts', "import { quoteHandlers } from '../handlers/quotes'"],
    ['src/main/handlers/x.ts', "import type { Handlers } from './dispatch'"],
    ['src/main/handlers/x.ts', "import { TransferService } from '../domain/transfers'"],
    ['src/main/domain/x.ts', "import { ApiClient } from '../infra/api-client'"],
    ['src/main/infra/x.ts', "const m = await import('undici')"],
    ['src/main/infra/x.ts', "const z = require('zod')"]
  ])('%s may use %s', async (file, code) => {
    expect(await boundaryMessages(file, code)).toEqual([])
  })

  it('lists only packages the project depends on', async () => {
    const { LAYERS } = (await import(pathToFileURL(resolve(import.meta.dirname, '../../eslint/layers.js')).href)) as {
      LAYERS: { packages: string[] }[]
    }
    const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
      dependencies: Record<string, string>
      devDependencies: Record<string, string>
    }
    const known = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)])
    const listed = LAYERS.flatMap((l) => l.packages)
    expect(listed.filter((p) => !known.has(p))).toEqual([])
  })
})
