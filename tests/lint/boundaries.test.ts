import { resolve } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The process boundaries of docs/ARCHITECTURE.md are enforced by lint; these cases prove each rule bites.
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') })

const BOUNDARY_RULES = ['layers/allowed-imports', 'no-restricted-imports', 'no-restricted-syntax']

async function restrictedImportErrors(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '../..', file) })
  return result!.messages.filter((m) => BOUNDARY_RULES.includes(m.ruleId ?? '')).length
}

describe('lint boundaries', () => {
  it.each([
    ['src/main/services/x.ts', "import { app } from 'electron'", 'services never import electron'],
    ['src/main/services/x.ts', "import { ipcMain } from 'electron'", 'raw ipcMain outside the wrapper'],
    ['src/main/services/x.ts', "import { Worker } from 'node:worker_threads'", 'threads only in the cache writer'],
    [
      'src/main/electron/window.ts',
      "import { ipcMain } from 'electron'",
      'raw ipcMain outside src/main/electron/ipc.ts'
    ],
    ['src/renderer/src/x.ts', "import { createBackend } from '../../main/backend'", 'the renderer never imports main'],
    ['src/renderer/src/x.ts', "import { readFileSync } from 'node:fs'", 'no Node in the renderer'],
    ['src/renderer/src/x.ts', "import { ipcRenderer } from 'electron'", 'no raw ipcRenderer in the renderer'],
    ['src/shared/x.ts', "import { createHash } from 'node:crypto'", 'no Node built-ins in shared'],
    ['src/shared/x.ts', "import path from 'path'", 'no bare Node built-ins in shared'],
    ['src/shared/x.ts', "import { useState } from 'react'", 'no react in shared'],
    ['src/shared/x.ts', "import { x } from '../main/backend'", 'shared imports no process code'],
    ['src/sandbox/x.ts', "import { app } from 'electron'", 'the sandbox stands alone'],
    ['src/sandbox/x.ts', "import { x } from '../main/backend'", 'the sandbox does not import main'],
    ['src/preload/x.ts', "import { readFileSync } from 'node:fs'", 'preload only bridges'],
    [
      'src/main/electron/window.ts',
      "import * as electron from 'electron'\nelectron.ipcMain.handle('x', () => 1)",
      'no raw ipcMain through a namespace'
    ],
    [
      'src/preload/other.ts',
      "import electron from 'electron'\nelectron.ipcRenderer.send('x')",
      'no raw ipcRenderer outside preload/index.ts'
    ],
    // Fail closed: what no layer list names is refused, with no rule written for it.
    ['src/main/services/x.ts', "import WebSocket from 'ws'", 'a package no layer lists'],
    ['src/main/services/x.ts', "import { runInNewContext } from 'node:vm'", 'a Node built-in main does not list'],
    // A scoped package no renderer code may use (@tanstack/react-query, used here before, is joining the renderer's list).
    ['src/renderer/src/x.ts', "import { test } from '@playwright/test'", 'a scoped package the renderer lacks'],
    ['src/renderer/src/x.ts', "const m = await import('undici')", 'a dynamic import'],
    ['src/shared/x.ts', "export { z } from 'zod/v4/core'\nexport * from 'react'", 're-exports are imports too'],
    ['src/main/services/x.ts', "import { x } from '../../renderer/src/x'", 'main never imports renderer code'],
    ['src/main/services/x.ts', "import { x } from '../electron/app'", 'services never import the Electron adapter'],
    ['src/main/electron/x.ts', "import { readFileSync } from 'node:fs'", 'adapters stay thin'],
    ['src/sandbox/x.ts', "import { request } from 'undici'", 'a package the sandbox does not list'],
    [
      'src/main/infra/cache/store.ts',
      "import Database from 'better-sqlite3-multiple-ciphers'",
      'only cache/sqlite.ts loads the SQLite binding'
    ],
    ['src/renderer/src/x.ts', "import Database from 'better-sqlite3-multiple-ciphers'", 'the renderer never does'],
    ['src/gate/domain/x.ts', "import { x } from '../../main/backend'", 'the gate never imports main'],
    ['src/gate/domain/x.ts', "import { x } from '../../sandbox/server'", 'the gate runs without the sandbox'],
    ['src/gate/http/x.ts', "import { request } from 'undici'", 'a package the gate does not list'],
    [
      'src/gate/store/sqlite-store.ts',
      "import Database from 'better-sqlite3-multiple-ciphers'",
      'only store/sqlite-open.ts loads the SQLite binding'
    ],
    // Fail closed on what the import rules alone would miss.
    ['src/tools/x.ts', 'export const x = 1', 'a file that no layer names'],
    ['src/x.ts', 'export const x = 1', 'a file at the root of src'],
    ['src/main/services/x.ts', "const ws = require('ws')", 'require() of a package no layer lists'],
    ['src/main/services/x.ts', "const p = require.resolve('ws')", 'require.resolve() loads code too'],
    ['src/shared/x.ts', "const fs = require('node:fs')", 'require() of a built-in shared does not list'],
    ['src/main/services/x.ts', "const name = 'ws'\nconst m = require(name)", 'require() of a computed name'],
    ['src/main/services/x.ts', "const name = 'ws'\nconst m = await import(name)", 'import() of a computed name'],
    ['src/main/services/x.ts', "import type { Backend } from '../backend'", 'a service never reaches the root'],
    ['src/main/gate/x.ts', "import { startBrowserModeServer } from '../web/server'", 'nor the browser-mode edge'],
    ['src/main/web/x.ts', "import { app } from 'electron'", 'the browser-mode edge never loads electron']
  ])('%s: %s is refused (%s)', async (file, code) => {
    expect(await restrictedImportErrors(file, code)).toBeGreaterThan(0)
  })

  it.each([
    ['src/main/electron/ipc.ts', "import { ipcMain } from 'electron'"],
    ['src/preload/index.ts', "import { ipcRenderer, contextBridge } from 'electron'"],
    ['src/main/electron/app.ts', "import { app, BrowserWindow } from 'electron'"],
    ['src/main/index.ts', "import { runElectronApp } from './electron/app'"],
    ['src/main/services/x.ts', "import { request } from 'undici'"],
    ['src/shared/x.ts', "import { z } from 'zod'"],
    ['src/renderer/src/x.ts', "import { z } from 'zod'"],
    ['src/renderer/src/x.ts', "import { createRoot } from 'react-dom/client'"],
    ['src/renderer/src/x.ts', "import { money } from '../../shared/format/money'"],
    ['src/main/services/x.ts', "import { createHash } from 'node:crypto'"],
    ['src/main/services/x.ts', "import { startSandbox } from '../../sandbox/server'"],
    ['src/sandbox/x.ts', "import { createServer } from 'node:http'"],
    ['src/main/infra/cache/sqlite.ts', "import Database from 'better-sqlite3-multiple-ciphers'"],
    ['src/gate/http/x.ts', "import Fastify from 'fastify'"],
    ['src/gate/domain/x.ts', "import { z } from '../../shared/gate'"],
    ['src/gate/store/sqlite-open.ts', "import Database from 'better-sqlite3-multiple-ciphers'"],
    ['src/main/web/x.ts', "import type { Backend } from '../backend'"],
    ['src/main/electron/x.ts', "import { createBackend } from '../backend'"],
    ['src/main/services/x.ts', "const m = await import('undici')"],
    ['src/main/services/x.ts', "const z = require('zod')"]
  ])('%s may use %s', async (file, code) => {
    expect(await restrictedImportErrors(file, code)).toBe(0)
  })
})
