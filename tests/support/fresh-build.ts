import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/**
 * Builds `out/` when anything in src/ is newer than the built main process: a test of a stale build would prove
 * nothing about the source.
 */
export function ensureFreshBuild(): void {
  const builtMain = join(root, 'out/main/index.js')
  if (!existsSync(builtMain) || newestMtime(join(root, 'src')) > statSync(builtMain).mtimeMs)
    execFileSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
}
