import { describe, expect, it } from 'vitest'
import {
  APPEARANCE_HINT_KEY,
  applyTheme,
  readHint,
  shownTheme,
  themeAttribute
} from '../../../src/renderer/src/styles/theme'

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial))
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value)
  }
}

describe('the theme choice', () => {
  it('fixes light or dark, and leaves System to the operating system', () => {
    expect(themeAttribute('light')).toBe('light')
    expect(themeAttribute('dark')).toBe('dark')
    expect(themeAttribute('system')).toBeNull()
    expect(shownTheme('system', true)).toBe('dark')
    expect(shownTheme('system', false)).toBe('light')
    expect(shownTheme('light', true)).toBe('light')
    expect(shownTheme('dark', false)).toBe('dark')
  })

  it('puts a fixed theme on <html>, takes it off for System, and keeps the choice for the next first paint', () => {
    const root = { dataset: {} as DOMStringMap }
    const storage = memoryStorage()
    applyTheme({ theme: 'dark', timeZone: 'utc' }, root, storage)
    expect(root.dataset['theme']).toBe('dark')
    expect(readHint(storage)).toEqual({ theme: 'dark', timeZone: 'utc' })
    applyTheme({ theme: 'system', timeZone: 'local' }, root, storage)
    expect(root.dataset['theme']).toBeUndefined()
    expect(readHint(storage)).toEqual({ theme: 'system', timeZone: 'local' })
  })

  it('paints with the system theme when the kept choice is missing, unreadable or unknown', () => {
    expect(readHint(undefined)).toBeNull()
    expect(readHint(memoryStorage())).toBeNull()
    expect(readHint(memoryStorage({ [APPEARANCE_HINT_KEY]: '{not json' }))).toBeNull()
    expect(readHint(memoryStorage({ [APPEARANCE_HINT_KEY]: '{"theme":"sepia","timeZone":"utc"}' }))).toBeNull()
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError')
      }
    }
    expect(readHint(refusing)).toBeNull()
  })

  it('still applies the theme when the storage refuses to keep it', () => {
    const root = { dataset: {} as DOMStringMap }
    const refusing = {
      setItem: () => {
        throw new Error('QuotaExceededError')
      }
    }
    applyTheme({ theme: 'light', timeZone: 'local' }, root, refusing)
    expect(root.dataset['theme']).toBe('light')
  })
})
