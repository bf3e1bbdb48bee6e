// `npm run web`: browser mode — the backend under Node, the built renderer on 127.0.0.1 behind a per-launch token.
import { build, ensureInstalled, runBrowserMode } from './lib.mjs'

await ensureInstalled()
build()
runBrowserMode(process.argv.slice(2))
