// electron-builder afterPack hook: flips the fuses listed in build/fuses.cjs in the packed Electron binary, before
// signing (electron-builder signs after this hook, so the signature covers the flipped wire).
const path = require('node:path')
const { flipFuses, FuseV1Options, FuseVersion } = require('@electron/fuses')
const { fuses } = require('./fuses.cjs')

/** The binary that carries the fuse wire, per platform (on macOS @electron/fuses finds the framework from the .app). */
function electronBinary({ appOutDir, electronPlatformName, packager }) {
  const name = packager.appInfo.productFilename
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return path.join(appOutDir, `${name}.app`)
  if (electronPlatformName === 'win32') return path.join(appOutDir, `${name}.exe`)
  return path.join(appOutDir, packager.executableName)
}

function wireConfig() {
  const config = { version: FuseVersion.V1 }
  for (const [name, enabled] of Object.entries(fuses)) {
    if (!(name in FuseV1Options)) throw new Error(`build/fuses.cjs names an unknown fuse: ${name}`)
    config[FuseV1Options[name]] = enabled
  }
  return config
}

module.exports = async function afterPack(context) {
  const binary = electronBinary(context)
  const arm64Mac = context.electronPlatformName === 'darwin' && context.arch === 3 /* builder-util Arch.arm64 */
  await flipFuses(binary, { ...wireConfig(), resetAdHocDarwinSignature: arm64Mac })
}
module.exports.electronBinary = electronBinary
