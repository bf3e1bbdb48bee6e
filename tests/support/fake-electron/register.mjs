// Loads the built main process with `electron` replaced by a recording fake, so tests can read what main passes to
// Electron without an Electron binary.
import { register } from 'node:module'

register(new URL('./hooks.mjs', import.meta.url))
