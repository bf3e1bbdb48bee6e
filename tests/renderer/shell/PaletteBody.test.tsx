import { QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'

// The palette as first drawn for what was typed, against a bridge that never answers: the commands it offers at once,
// that it says "Searching…" while records are asked for, and says plainly when nothing can match.
vi.hoisted(() => {
  vi.stubGlobal('window', { paydesk: { invoke: () => new Promise(() => {}), on: () => () => {} } })
})

async function draw(typed: string): Promise<string> {
  const { PaletteBody } = await import('../../../src/renderer/src/shell/PaletteBody')
  const { createQueryClient } = await import('../../../src/renderer/src/data/query-client')
  return renderToStaticMarkup(
    <QueryClientProvider client={createQueryClient()}>
      <PaletteBody initialQuery={typed} />
    </QueryClientProvider>
  )
}

const options = (html: string) =>
  [...html.matchAll(/role="option"[^>]*>.*?<span class="palette-label">([^<]*)<\/span>/g)].map((m) => m[1])

describe('command palette', () => {
  it('offers actions and sections at once, in a named listbox, with its combobox named', async () => {
    const html = await draw('')
    expect(html).toMatch(/<label[^>]*>Search or jump to<\/label>/)
    expect(html).toMatch(/role="combobox"/)
    expect(html).toMatch(/role="listbox"[^>]*aria-label="Results"/)
    expect(options(html)).toEqual(
      expect.arrayContaining(['Send money', 'New customer', 'New quote', 'Keyboard shortcuts', 'Customers'])
    )
  })

  it('"send" offers Send money first, and searches records meanwhile', async () => {
    const html = await draw('send')
    expect(options(html)[0]).toBe('Send money')
    expect(html).toContain('Searching…')
  })

  it('says plainly when nothing matches what was typed', async () => {
    const html = await draw('z')
    expect(options(html)).toEqual([])
    expect(html).toContain(
      'Nothing matches “z”. Try part of a name or an id (2 characters or more), or an action such as “send money”.'
    )
  })
})
