/**
 * `npm run bench [-- <section> ...]`: runs the named sections (all when none is named); each prints measured figures
 * and whether it met its target. Figures, not pass/fail, are the point: speed goals live here, not in unit tests.
 */
import { runCoreBench } from './core'
import { runExportBench } from './export'
import { runGateBench } from './gate'
import { runGatePgBench } from './gate-pg'
import { runNamesBench } from './names'
import { runSandboxBench } from './sandbox'
import { runUiBench } from './ui'

const SECTIONS: Record<string, () => Promise<void>> = {
  sandbox: runSandboxBench,
  core: runCoreBench,
  names: runNamesBench,
  ui: runUiBench,
  export: runExportBench,
  gate: runGateBench,
  'gate-pg': runGatePgBench
}

// An option's value may follow it (`--seconds 10`): a number right after `--name` is not a section.
const args = process.argv.slice(2)
const asked = args.filter((a, i) => !a.startsWith('-') && !(/^[\d_]+$/.test(a) && args[i - 1]?.startsWith('--')))
const unknown = asked.filter((name) => !(name in SECTIONS))
if (unknown.length > 0) {
  console.error(`Unknown bench section(s): ${unknown.join(', ')}. Sections: ${Object.keys(SECTIONS).join(', ')}.`)
  process.exit(2)
}
for (const name of asked.length > 0 ? asked : Object.keys(SECTIONS)) {
  console.log(`\n## bench: ${name}`)
  await SECTIONS[name]!()
}
