import { describe, expect, it } from 'vitest'
import { isAllowedRendererRequest, isAppPageUrl, isSafeExternalUrl } from '../../../src/main/electron/url-policy'

const page = 'file:///opt/paydesk/out/renderer/index.html'

describe('isSafeExternalUrl', () => {
  it.each([
    ['https://docs.example.com/x', true],
    ['http://example.com', true],
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
    ['file:///tmp/evil.html', false],
    ['https://example.com', false]
  ])('%s → %s', (url, expected) => expect(isAppPageUrl(url, page)).toBe(expected))

  it('accepts only the dev server origin in development', () => {
    expect(isAppPageUrl('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true)
    expect(isAppPageUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false)
  })
})

describe('isAllowedRendererRequest', () => {
  it.each([
    ['file:///opt/paydesk/out/renderer/assets/index.js', true],
    ['devtools://devtools/bundled/x.js', true],
    ['file:///etc/passwd', false],
    ['https://api.lightspark.com/grid/2025-10-13/customers', false],
    ['http://127.0.0.1:4010/2025-10-13/customers', false]
  ])('%s → %s', (url, expected) => expect(isAllowedRendererRequest(url, page)).toBe(expected))
})
