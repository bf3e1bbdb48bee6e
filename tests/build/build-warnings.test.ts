import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build, createLogger, type Rollup } from 'vite'
import { describe, expect, it } from 'vitest'
import config, { onBuildWarning } from '../../electron.vite.config'

const root = resolve(import.meta.dirname, '../..')

function warning(code: string, id: string): Rollup.RollupLog {
  return { code, id, message: `${code} in ${id}` }
}

describe('the build says nothing it does not need to', () => {
  it('drops only the known harmless warnings, by code and package', () => {
    const shown: string[] = []
    const warn = (w: Rollup.RollupLog) => shown.push(`${w.code} ${w.id}`)
    onBuildWarning(warning('INVALID_ANNOTATION', join(root, 'node_modules/zod/v4/core/util.js')), warn)
    onBuildWarning(warning('INVALID_ANNOTATION', join(root, 'node_modules/other/index.js')), warn)
    onBuildWarning(warning('CIRCULAR_DEPENDENCY', join(root, 'node_modules/zod/v4/core/util.js')), warn)
    onBuildWarning(warning('EVAL', join(root, 'src/main/index.ts')), warn)
    expect(shown).toEqual([
      `INVALID_ANNOTATION ${join(root, 'node_modules/other/index.js')}`,
      `CIRCULAR_DEPENDENCY ${join(root, 'node_modules/zod/v4/core/util.js')}`,
      `EVAL ${join(root, 'src/main/index.ts')}`
    ])
  })

  it('every part of the build (main, preload, renderer) uses that filter', () => {
    const parts = config as unknown as Record<string, { build: { rollupOptions: { onwarn?: unknown } } }>
    for (const part of ['main', 'preload', 'renderer'])
      expect(parts[part]?.build.rollupOptions.onwarn, part).toBe(onBuildWarning)
  })

  it('in a real Rollup build, zod’s annotation warnings are gone and a new kind of warning still shows', async () => {
    const warnings: string[] = []
    const logger = createLogger('warn')
    logger.warn = (message) => void warnings.push(message)
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      customLogger: logger,
      build: {
        ssr: true,
        write: false,
        rollupOptions: {
          input: join(root, 'tests/build/fixtures/warns.ts'),
          external: [/^node:/],
          onwarn: onBuildWarning
        }
      },
      ssr: { noExternal: ['zod'] }
    })
    const said = warnings.join('\n')
    expect(said).not.toContain('annotation that Rollup cannot interpret')
    expect(said).toContain('eval')
  })

  // What `npm start` runs before Paydesk's own lines: the whole build, into a folder of its own so the tests that
  // read out/ are not disturbed (inside the project, where Vite empties it without a word). Anything it prints is a
  // warning nobody has judged harmless yet.
  it('the app’s build prints nothing', { timeout: 300_000 }, () => {
    const outDir = mkdtempSync(join(root, 'node_modules', '.paydesk-build-test-'))
    try {
      const result = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn', '--outDir', outDir], {
        cwd: root,
        encoding: 'utf8'
      })
      expect(result.status, result.stderr).toBe(0)
      expect(`${result.stdout}${result.stderr}`.trim()).toBe('')
    } finally {
      rmSync(outDir, { recursive: true, force: true })
    }
  })
})
