// The Electron fuses Paydesk's packaged binary ships with: read by the afterPack hook that flips them
// (build/after-pack.cjs) and by the packaging test that reads them back (tests/build/packaging.test.ts).
// Names are @electron/fuses' FuseV1Options keys; a fuse not listed keeps Electron's default.
module.exports = {
  fuses: {
    // No `ELECTRON_RUN_AS_NODE`: the app binary cannot be turned into a plain Node that runs any script.
    RunAsNode: false,
    // Cookies (the renderer has none of value today) are encrypted at rest with an OS-keychain key.
    EnableCookieEncryption: true,
    // NODE_OPTIONS (e.g. --require) and --inspect cannot inject code into the main process.
    EnableNodeOptionsEnvironmentVariable: false,
    EnableNodeCliInspectArguments: false,
    // app.asar is checked against the hash embedded at packaging time, and nothing outside it is loaded as the app.
    EnableEmbeddedAsarIntegrityValidation: true,
    OnlyLoadAppFromAsar: true,
    // The page comes from app:// (src/main/electron/app-protocol.ts), not file://: a file:// page gets no more than a
    // browser would give it (no fetch of other files). Main reading out/renderer for the handler is not a page.
    GrantFileProtocolExtraPrivileges: false
  }
}
