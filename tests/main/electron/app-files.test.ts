import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { APP_PAGE_URL, appFileFor } from '../../../src/main/electron/app-files'

const root = resolve('/opt/Paydesk/resources/app.asar/out/renderer')

describe('appFileFor: what app://paydesk/ serves of out/renderer', () => {
  it('serves the page and its files with the types Chromium needs (a module script must be JavaScript)', () => {
    expect(appFileFor(APP_PAGE_URL, root)).toEqual({
      file: join(root, 'index.html'),
      type: 'text/html; charset=utf-8'
    })
    expect(appFileFor('app://paydesk/', root)).toMatchObject({ file: join(root, 'index.html') })
    expect(appFileFor('app://paydesk/assets/index-CnQ9zVAB.js', root)).toEqual({
      file: join(root, 'assets/index-CnQ9zVAB.js'),
      type: 'text/javascript; charset=utf-8'
    })
    expect(appFileFor('app://paydesk/assets/index-BkS1C9WK.css?v=1#x', root)).toEqual({
      file: join(root, 'assets/index-BkS1C9WK.css'),
      type: 'text/css; charset=utf-8'
    })
    expect(appFileFor('app://paydesk/assets/font%20name.woff2', root)).toMatchObject({
      file: join(root, 'assets/font name.woff2'),
      type: 'font/woff2'
    })
  })

  it.each([
    ['an escaped slash climbing out', 'app://paydesk/..%2f..%2fpackage.json', 403],
    ['escaped dots and slashes', 'app://paydesk/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json', 403],
    [
      'an escaped slash to the keyring password',
      'app://paydesk/..%2F..%2F..%2F..%2F.config%2FPaydesk%2Fkeyring-password',
      403
    ],
    ['backslashes', 'app://paydesk/..%5c..%5cpackage.json', 400],
    ['a NUL', 'app://paydesk/index.html%00.js', 400],
    ['a malformed escape', 'app://paydesk/%E0%A4%A.js', 400],
    ['another host', 'app://elsewhere/index.html', 404],
    ['another scheme', 'file:///opt/Paydesk/resources/app.asar/out/renderer/index.html', 404],
    ['a folder', 'app://paydesk/assets', 404],
    ['a file of no page type', 'app://paydesk/assets/../../main/index.node', 404],
    ['not a URL', 'not a url', 400]
  ])('refuses %s', (_what, url, status) => {
    expect(appFileFor(url, root)).toMatchObject({ status })
  })

  it('never names a file outside out/renderer, whatever the path', () => {
    for (const path of [
      '/..',
      '/../renderer-other/x.js',
      '/%2e%2e/x.js',
      '/a/%2e%2e%2f%2e%2e%2fx.js',
      '//etc/passwd.js'
    ]) {
      const answer = appFileFor(`app://paydesk${path}`, root)
      if ('file' in answer) expect(answer.file.startsWith(`${root}/`)).toBe(true)
    }
  })
})
