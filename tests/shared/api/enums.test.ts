import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { closedEnum, isKnownValue, openEnum } from '../../../src/shared/api/enums'
import { issuesOf } from './helpers'

const COLORS = ['RED', 'GREEN'] as const

describe('openEnum', () => {
  const Color = openEnum(COLORS)
  it.each([['RED'], ['GREEN'], ['BLUE'], ['some new value'], ['']])('accepts %j verbatim', (v) => {
    expect(Color.parse(v)).toBe(v)
  })
  it.each([[1], [null], [undefined], [{}], [true]])('rejects non-string %j', (v) => {
    expect(Color.safeParse(v).success).toBe(false)
  })
  it('keeps unknown values inside a loose object', () => {
    const S = z.looseObject({ color: Color })
    expect(S.parse({ color: 'PURPLE', extra: 1 })).toEqual({ color: 'PURPLE', extra: 1 })
  })
  it('tells known from unknown', () => {
    expect(isKnownValue(COLORS, 'RED')).toBe(true)
    expect(isKnownValue(COLORS, 'BLUE')).toBe(false)
    expect(isKnownValue(COLORS, 3)).toBe(false)
  })
})

describe('closedEnum', () => {
  const Color = closedEnum(COLORS, 'color')
  it('accepts known values', () => {
    expect(Color.parse('GREEN')).toBe('GREEN')
  })
  it.each([
    ['BLUE', 'color must be one of RED, GREEN'],
    ['red', 'color must be one of RED, GREEN'],
    [undefined, 'color is required']
  ])('rejects %j with "%s"', (v, message) => {
    expect(issuesOf(Color, v)[0]?.message).toBe(message)
  })
})
