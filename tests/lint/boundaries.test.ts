import { resolve } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The process boundaries of docs/ARCHITECTURE.md are enforced by lint; these cases prove each rule bites.
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') })

async function restrictedImportErrors(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '../..', file) })
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .length
}

describe('lint boundaries', () => {
  it.each([
    ['src/main/services/x.ts', "import { app } from 'electron'", 'services never import electron'],
    ['src/main/services/x.ts', "import { ipcMain } from 'electron'", 'raw ipcMain outside the wrapper'],
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
    ]
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
    ['src/renderer/src/x.ts', "import { z } from 'zod'"]
  ])('%s may use %s', async (file, code) => {
    expect(await restrictedImportErrors(file, code)).toBe(0)
  })
})
