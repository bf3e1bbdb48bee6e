import { beforeEach, describe, expect, it } from 'vitest'
import { listMemory, useListMemory } from '../../../src/renderer/src/stores/list-memory'

beforeEach(() => useListMemory.setState({ lists: {} }))

describe('list memory', () => {
  it('gives a list never visited no filters, the top and no selection', () => {
    expect(listMemory('customers')).toEqual({ filters: {}, scrollTop: 0, selectedId: null })
  })

  it('keeps each list as the operator left it, and a save changes only what it names', () => {
    const { save } = useListMemory.getState()
    save('customers', { filters: { search: 'jane' }, scrollTop: 0 })
    save('customers', { scrollTop: 480 })
    save('customers', { selectedId: 'Customer:1' })
    save('transactions', { filters: { status: 'FAILED' } })

    expect(listMemory('customers')).toEqual({ filters: { search: 'jane' }, scrollTop: 480, selectedId: 'Customer:1' })
    // Another list's memory is its own.
    expect(listMemory('transactions')).toEqual({ filters: { status: 'FAILED' }, scrollTop: 0, selectedId: null })
  })
})
