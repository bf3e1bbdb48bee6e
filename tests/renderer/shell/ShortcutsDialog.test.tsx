import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { ShortcutsPanel } from '../../../src/renderer/src/shell/ShortcutsDialog'
import { shortcutGroups } from '../../../src/renderer/src/shell/shortcuts'
import { ROUTES } from '../../../src/renderer/src/stores/ui'

// The list `?` shows, as first drawn: every row comes from shortcuts.ts, the one home of Paydesk's shortcuts. The
// profiles store (read by the dialog around it) holds the bridge: one that never answers stands in for the page's.
vi.hoisted(() => {
  vi.stubGlobal('window', { paydesk: { invoke: () => new Promise(() => {}), on: () => () => {} } })
})

const draw = (environment: 'local' | 'production') =>
  renderToStaticMarkup(<ShortcutsPanel environment={environment} onClose={() => {}} />)

describe('shortcuts list', () => {
  it('is a named dialog listing the palette, ? and every section key, from the table', () => {
    const html = draw('local')
    expect(html).toMatch(/role="dialog" aria-modal="true" aria-labelledby="shortcuts-title"/)
    expect(html).toContain('<h2 id="shortcuts-title">Keyboard shortcuts</h2>')
    expect(html).toContain('<kbd>Ctrl</kbd><span class="muted"> + </span><kbd>K</kbd>')
    expect(html).toContain('<dd>Show these shortcuts</dd>')
    for (const route of ROUTES) {
      expect(html).toContain(
        `<kbd>g</kbd><span class="muted"> then </span><kbd>${route.key}</kbd></dt><dd>${route.label}</dd>`
      )
    }
    const rows = shortcutGroups('local').flatMap((g) => g.shortcuts).length
    expect(html.match(/<dt>/g)).toHaveLength(rows)
  })

  it('leaves out the sections a production profile does not have', () => {
    const html = draw('production')
    expect(html).not.toContain('Sandbox tools')
    expect(html).toContain('<dd>Settings</dd>')
  })

  it('gives each key one meaning', () => {
    for (const environment of ['local', 'production'] as const) {
      const keys = shortcutGroups(environment).flatMap((g) => g.shortcuts.map((s) => s.keys.join(' ')))
      expect(new Set(keys).size).toBe(keys.length)
    }
  })
})
