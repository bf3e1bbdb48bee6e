import { describe, expect, it } from 'vitest'
import {
  appPageUrlFor,
  isAllowedRendererRequest,
  isAppPageUrl,
  isSafeExternalUrl
} from '../../../src/main/electron/url-policy'

const page = 'app://paydesk/index.html'

describe('isSafeExternalUrl', () => {
  it.each([
    ['https://grid.lightspark.com/platform-overview', true],
    ['http://grid.lightspark.com/platform-overview', false],
    ['https://docs.example.com/x', false],
    ['https://grid.lightspark.com.evil.example/x', false],
    ['https://grid.lightspark.com:8443/x', false],
    ['http://example.com', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['smb://host/share', false],
    ['https://user:pass@example.com', false],
    ['not a url', false]
  ])('%s → %s', (url, expected) => expect(isSafeExternalUrl(url)).toBe(expected))
})

describe('isAppPageUrl', () => {
  it.each([
    [page, true],
    [`${page}#approvals`, true],
    ['app://paydesk/assets/index.js', false],
    ['app://elsewhere/index.html', false],
    ['file:///opt/paydesk/out/renderer/index.html', false],
    ['file:///tmp/evil.html', false],
    ['https://example.com', false],
    ['https://paydesk/index.html', false]
  ])('%s → %s', (url, expected) => expect(isAppPageUrl(url, page)).toBe(expected))

  it('accepts only the dev server origin in development', () => {
    expect(isAppPageUrl('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true)
    expect(isAppPageUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false)
  })
})

describe('isAllowedRendererRequest', () => {
  it.each([
    ['app://paydesk/assets/index.js', true],
    ['app://paydesk/index.html', true],
    ['devtools://devtools/bundled/x.js', true],
    ['app://elsewhere/assets/index.js', false],
    ['file:///opt/paydesk/out/renderer/assets/index.js', false],
    ['file:///etc/passwd', false],
    ['https://api.lightspark.com/grid/2025-10-13/customers', false],
    ['http://127.0.0.1:4010/2025-10-13/customers', false]
  ])('%s → %s', (url, expected) => expect(isAllowedRendererRequest(url, page)).toBe(expected))
})

describe('appPageUrlFor', () => {
  it('ignores ELECTRON_RENDERER_URL in an installed app', () => {
    expect(appPageUrlFor({ isPackaged: true, devServerUrl: 'http://evil.example/' })).toBe(page)
  })
  it('uses the dev server in development, the built page on app:// otherwise', () => {
    expect(appPageUrlFor({ isPackaged: false, devServerUrl: 'http://localhost:5173/' })).toBe('http://localhost:5173/')
    expect(appPageUrlFor({ isPackaged: false, devServerUrl: undefined })).toBe(page)
  })
})
