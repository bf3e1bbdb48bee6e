import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

// Tests mirror the source tree (docs/ARCHITECTURE.md): tests/<area>/<p>.test.ts tests src/<area>/<p>, so the test of a
// module is found without searching. The tree is read each run, so a moved source file or test is caught at once.
const root = resolve(import.meta.dirname, '..')

/** Where each mirrored test folder points in src (the renderer's code lives one level down, in src/renderer/src). */
const MIRRORS: Record<string, string> = {
  'tests/shared': 'src/shared',
  'tests/main': 'src/main',
  'tests/sandbox': 'src/sandbox',
  'tests/gate': 'src/gate',
  'tests/renderer': 'src/renderer/src'
}

/**
 * Tests that are about a behaviour across several modules rather than one file. Keep this short: each entry says why
 * it cannot mirror a single source file or folder.
 */
const CROSS_CUTTING: Record<string, string> = {
  'tests/main/app/damaged-state.test.ts':
    'damages each persisted file in turn (cache, journal, approvals) through a backend',
  'tests/main/app/secrets.test.ts': 'walks a whole operator session and scans every output for a secret',
  'tests/main/app/connection-states.test.ts':
    "the top bar's connection state through a backend: the client's attempts, the monitor, the sync engine and the Local sandbox's process and Restart",
  'tests/main/electron/built-main.test.ts': 'reads the built bundle (out/main), not a module',
  'tests/main/app/fault-run.test.ts': 'replays injected service faults through a whole session',
  'tests/main/domain/transfer-exactly-once.test.ts':
    'exactly-once across crashes: journal, attempt and transfers together',
  'tests/main/domain/desktop/update-restart.test.ts':
    'the update policy composed with money in flight, in a running backend',
  'tests/main/web/export-download.test.ts': 'an export job streamed to the browser through the browser-mode server',
  'tests/main/web/server-fuzz.test.ts':
    'fuzzes the browser-mode bridge; kept apart from server.test.ts for its run time',
  'tests/sandbox/schemas.test.ts': "the sandbox's answers read through the client's schemas in src/shared/api",
  'tests/gate/http/hostile.test.ts': "floods the gate's webhook, command and stream endpoints with hostile requests",
  'tests/gate/ha.test.ts': 'two gate processes on one PostgreSQL behind HAProxy, one killed with SIGKILL mid-load',
  'tests/gate/http/prompts-replicas.test.ts':
    'two gates on one database: a prompt opened on one, answered or given its fallback on the other',
  'tests/main/domain/gate/local-gate-link.test.ts':
    "the Local profile's link end to end: its gate process, the link and the stream, prompted and approved",
  'tests/main/infra/test-approval-window.test.ts':
    "the test-only approval window from the environment to the Local sandbox's start message and the gate's config",
  'tests/sandbox/engine/approval-window.test.ts':
    "the approval deferral option through the sandbox's CLI, its start message and the engine's deadline",
  'tests/renderer/bridge/gate-events.test.ts':
    "the gate's events through the bridge into the badge, the query cache and the notices",
  'tests/renderer/views/external-accounts/operator-words.test.ts':
    'every box of every account type the add form offers, against the shared schemas, for internal field names'
}

/**
 * Source folders with no test folder of their own (nor a `<folder>.test.ts`). Keep this short: each entry says where the
 * folder is tested instead.
 */
const UNMIRRORED_FOLDERS: Record<string, string> = {
  'src/gate/deploy': 'a Dockerfile and a systemd unit, no code',
  'src/gate/service': "the gate's client of the Payments API, driven by tests/gate/domain/gate.test.ts",
  'src/renderer/src/views/customers': 'its screens are driven by e2e/web/customers.spec.ts and customer-forms.spec.ts',
  'src/renderer/src/views/quotes': 'its screens are driven by e2e/web/quotes.spec.ts and quote-recovery.spec.ts',
  'src/renderer/src/views/settings': 'its panels are driven by e2e/web/settings.spec.ts'
}

const TEST_FILE = /\.test\.tsx?$/

function testFiles(dir: string): string[] {
  if (!existsSync(join(root, dir))) return []
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => TEST_FILE.test(f))
    .map((f) => join(dir, f).split(sep).join('/'))
}

/** True when `src/.../<p>` exists as a source file (any extension) or as a folder. */
function namesSource(srcPath: string): boolean {
  const abs = join(root, srcPath)
  if (existsSync(abs)) return true
  const dir = join(abs, '..')
  const name = relative(dir, abs)
  return existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(`${name}.`) && !TEST_FILE.test(f))
}

/** Every folder under `dir` that holds a file at any depth (git keeps no empty folder, so neither does this). */
function sourceFolders(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(join(root, dir)).sort()) {
    const path = `${dir}/${entry}`
    if (!statSync(join(root, path)).isDirectory()) continue
    const inner = sourceFolders(path)
    if (inner.length > 0 || readdirSync(join(root, path)).length > 0) out.push(path, ...inner)
  }
  return out
}

function sourceOf(testFile: string): string {
  const [testDir, srcDir] = Object.entries(MIRRORS).find(([t]) => testFile.startsWith(`${t}/`))!
  return `${srcDir}/${testFile.slice(testDir.length + 1).replace(TEST_FILE, '')}`
}

describe('tests mirror src', () => {
  const files = Object.keys(MIRRORS).flatMap(testFiles)

  it('finds the mirrored test folders', () => {
    expect(files.length).toBeGreaterThan(50)
  })

  it('every test under tests/{shared,main,sandbox,gate,renderer} names an existing source file or folder', () => {
    const strays = files
      .filter((f) => !(f in CROSS_CUTTING))
      .filter((f) => !namesSource(sourceOf(f)))
      .map((f) => `${f} (no ${sourceOf(f)}.ts or folder)`)
    expect(strays).toEqual([])
  })

  it('lists no exception that has since gone or come to mirror a source file', () => {
    const stale = Object.keys(CROSS_CUTTING).filter((f) => !existsSync(join(root, f)) || namesSource(sourceOf(f)))
    expect(stale).toEqual([])
  })

  it('every source folder under src/{shared,main,sandbox,gate,renderer/src} has its test folder', () => {
    const untested = Object.entries(MIRRORS).flatMap(([testDir, srcDir]) =>
      sourceFolders(srcDir)
        .filter((folder) => !(folder in UNMIRRORED_FOLDERS))
        .map((folder) => [folder, `${testDir}${folder.slice(srcDir.length)}`] as const)
        .filter(([, test]) => !existsSync(join(root, test)) && !existsSync(join(root, `${test}.test.ts`)))
        .map(([folder, test]) => `${folder} (no ${test}/ nor ${test}.test.ts)`)
    )
    expect(untested).toEqual([])
  })

  it('lists no unmirrored folder that has since gone or come to have its tests', () => {
    const stale = Object.keys(UNMIRRORED_FOLDERS).filter((folder) => {
      const [testDir, srcDir] = Object.entries(MIRRORS).find(([, src]) => folder.startsWith(`${src}/`))!
      const test = `${testDir}${folder.slice(srcDir.length)}`
      return (
        !existsSync(join(root, folder)) || existsSync(join(root, test)) || existsSync(join(root, `${test}.test.ts`))
      )
    })
    expect(stale).toEqual([])
  })

  it('maps tests/renderer to src/renderer/src and the other areas to src/<area>', () => {
    expect(sourceOf('tests/renderer/ui/window-loader.test.ts')).toBe('src/renderer/src/ui/window-loader')
    expect(sourceOf('tests/main/domain/quotes.test.ts')).toBe('src/main/domain/quotes')
    expect(namesSource('src/shared/api/account-info')).toBe(true)
    expect(namesSource('src/shared/api/no-such-module')).toBe(false)
  })
})
