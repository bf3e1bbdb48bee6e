import { existsSync, readdirSync } from 'node:fs'
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

  it('maps tests/renderer to src/renderer/src and the other areas to src/<area>', () => {
    expect(sourceOf('tests/renderer/ui/window-loader.test.ts')).toBe('src/renderer/src/ui/window-loader')
    expect(sourceOf('tests/main/domain/quotes.test.ts')).toBe('src/main/domain/quotes')
    expect(namesSource('src/shared/api/account-info')).toBe(true)
    expect(namesSource('src/shared/api/no-such-module')).toBe(false)
  })
})
