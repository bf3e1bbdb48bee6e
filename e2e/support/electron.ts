import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { test } from '@playwright/test'

const root = resolve(import.meta.dirname, '../..')

/** The Electron binary npm installed, or null where it could not be downloaded (as on our machines). */
export function electronBinary(): string | null {
  try {
    const relative = readFileSync(join(root, 'node_modules/electron/path.txt'), 'utf8').trim()
    const binary = join(root, 'node_modules/electron/dist', relative)
    return existsSync(binary) ? binary : null
  } catch {
    return null
  }
}

const ELECTRON_SKIP_REASON =
  'Electron suite skipped: no Electron binary on this machine (it cannot be downloaded here); browser-mode e2e covers the renderer'

const binary = electronBinary()
// One line for the whole suite: this module loads once in the runner (workers set TEST_WORKER_INDEX), however many
// spec files import it.
if (!binary && process.env['TEST_WORKER_INDEX'] === undefined) console.log(ELECTRON_SKIP_REASON)

/** Call at the top of every `_electron` spec: skips it (silently; the line above was printed) without a binary. */
export function requireElectron(): string {
  test.skip(!binary, ELECTRON_SKIP_REASON)
  return binary ?? ''
}

export const appRoot = root
