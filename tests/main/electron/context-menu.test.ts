import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => ({ Menu: {}, clipboard: {} }))

const { contextMenuTemplate } = await import('../../../src/main/electron/context-menu')

const all = { canCut: true, canCopy: true, canPaste: true, canSelectAll: true }

describe('the right-click menu', () => {
  it('offers cut, copy, paste and select all as the page allows them', () => {
    const template = contextMenuTemplate({ ...all, canCut: false, canPaste: false }, null, () => {})
    expect(template.map((i) => [i.role ?? i.type, i.enabled])).toEqual([
      ['cut', false],
      ['copy', true],
      ['paste', false],
      ['separator', undefined],
      ['selectAll', true]
    ])
  })

  it('over an id, "Copy id" comes first and puts exactly that id on the clipboard, only when clicked', () => {
    const written: string[] = []
    const template = contextMenuTemplate(all, 'Transaction:abc', (t) => written.push(t))
    expect(template[0]!.label).toBe('Copy id')
    expect(written).toEqual([])
    template[0]!.click!({} as never, undefined, {} as never)
    expect(written).toEqual(['Transaction:abc'])
  })
})
