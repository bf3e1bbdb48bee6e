import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ensureFreshBuild } from '../../support/fresh-build'

// The app's launcher of the Local processes (electronSandboxLauncher) as the built main runs it: under the strict
// Electron fake (tests/support/fake-electron), whose utilityProcess.fork starts a child that sees what an Electron
// utility process sees (process.parentPort, no process.send: utility-child.mjs). Browser mode and the other tests use
// child_process.fork instead; this is the only place the utilityProcess path of the Local gate is run.

const root = resolve(import.meta.dirname, '../../..')

interface Report {
  utilityProcesses: Array<{ modulePath: string; exists: boolean; serviceName?: string; stdio?: unknown }>
  gateLinks: Array<{ profileId: string; state: string; managed: boolean; url: string | null }>
  refused: string[]
  finished: boolean
}

let dir: string
let report: Report
let output: string

beforeAll(() => {
  ensureFreshBuild()
  dir = mkdtempSync(join(tmpdir(), 'paydesk-utility-gate-'))
  const reportFile = join(dir, 'report.json')
  const result = spawnSync(
    process.execPath,
    ['--import', join(root, 'tests/support/fake-electron/register.mjs'), join(root, 'out/main/index.js')],
    {
      cwd: root,
      env: {
        ...process.env,
        FAKE_ELECTRON_REPORT: reportFile,
        FAKE_ELECTRON_USER_DATA: join(dir, 'userData'),
        FAKE_ELECTRON_WAIT_FOR_LOCAL_GATE: '1'
      },
      timeout: 150_000,
      encoding: 'utf8'
    }
  )
  output = `${result.stdout}\n${result.stderr}`
  if (!existsSync(reportFile)) throw new Error(`built main left no report:\n${output}`)
  report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report
}, 180_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('starts the built gate entry through utilityProcess.fork, and the Local profile follows that gate live', () => {
  expect(report.refused).toEqual([])
  expect(report.finished, output).toBe(true)
  const gate = report.utilityProcesses.find((p) => p.serviceName === 'Paydesk Local approval gate')
  expect(gate, JSON.stringify(report.utilityProcesses)).toMatchObject({ exists: true, stdio: 'inherit' })
  expect(gate!.modulePath).toMatch(/out[\\/]main[\\/]gate-process\.js$/)
  // Its start message went through child.postMessage and its answer came back through process.parentPort: main
  // reached the gate on loopback with the token it handed over, and follows its stream.
  const live = report.gateLinks.find((l) => l.managed && l.state === 'live')
  expect(live, JSON.stringify(report.gateLinks)).toMatchObject({ profileId: 'local', managed: true })
  expect(live!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
})
