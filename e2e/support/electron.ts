import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

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
