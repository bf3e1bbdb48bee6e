import { describe, expect, it } from 'vitest'
import {
  convertBits,
  decodeBech32,
  encodeBech32,
  isValidSparkAddress,
  SPARK_ADDRESS_LENGTH,
  sparkAddressProblem
} from '../../../src/shared/api/spark'

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'

/** Deterministic 5-bit words (no Math.random, so failures reproduce). */
function words(count: number, seed: number): number[] {
  const out: number[] = []
  let x = seed
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648
    out.push(x % 32)
  }
  return out
}

/** A genuinely valid Spark address: hrp "spark", 75 data words, 6 checksum words = 87 characters. */
function sparkAddress(seed: number, variant: 'bech32' | 'bech32m' = 'bech32m'): string {
  return encodeBech32('spark', words(SPARK_ADDRESS_LENGTH - 'spark1'.length - 6, seed), variant)
}

/** Replaces the character at `index` by another charset character. */
function flip(s: string, index: number): string {
  const c = s[index] as string
  const lower = c.toLowerCase()
  const next = CHARSET[(CHARSET.indexOf(lower) + 1) % 32] as string
  return s.slice(0, index) + (c === lower ? next : next.toUpperCase()) + s.slice(index + 1)
}

describe('bech32 implementation against the BIP-173 / BIP-350 test vectors', () => {
  it.each([
    ['A12UEL5L', 'bech32'],
    ['a12uel5l', 'bech32'],
    ['abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw', 'bech32'],
    ['split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w', 'bech32'],
    ['A1LQFN3A', 'bech32m'],
    ['a1lqfn3a', 'bech32m'],
    ['abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx', 'bech32m']
  ])('decodes %s as %s', (s, variant) => {
    expect(decodeBech32(s)?.variant).toBe(variant)
  })
  it.each([
    ['A1G7SGD8', 'checksum computed with upper-case hrp'],
    ['a12UEL5L', 'mixed case'],
    ['abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxx', 'wrong checksum'],
    ['1nwldj5', 'empty hrp'],
    ['a1b2c3', 'no valid checksum'],
    ['ab1', 'too short']
  ])('rejects %s (%s)', (s) => {
    expect(decodeBech32(s)).toBeNull()
  })
  it('round-trips through encodeBech32', () => {
    for (const variant of ['bech32', 'bech32m'] as const) {
      const data = words(20, 7)
      const decoded = decodeBech32(encodeBech32('test', data, variant))
      expect(decoded).toEqual({ hrp: 'test', data, variant })
    }
  })
  it('reproduces the BIP-173 vector exactly', () => {
    expect(encodeBech32('a', [])).toBe('a12uel5l')
    expect(encodeBech32('a', [], 'bech32m')).toBe('a1lqfn3a')
  })
  it('converts bytes to 5-bit words and back', () => {
    const bytes = [0, 1, 2, 253, 254, 255, 128]
    const five = convertBits(bytes, 8, 5, true)
    expect(five).not.toBeNull()
    expect(convertBits(five as number[], 5, 8, false)).toEqual(bytes)
  })
  it('refuses bad input to the encoder', () => {
    expect(() => encodeBech32('Spark', [1])).toThrow()
    expect(() => encodeBech32('spark', [32])).toThrow()
  })
})

describe('isValidSparkAddress', () => {
  const valid = sparkAddress(1)

  it('accepts generated addresses of 87 characters (bech32m and bech32 checksums)', () => {
    expect(valid).toHaveLength(87)
    expect(valid.startsWith('spark1')).toBe(true)
    for (let seed = 1; seed <= 20; seed++) {
      expect(isValidSparkAddress(sparkAddress(seed))).toBe(true)
      expect(isValidSparkAddress(sparkAddress(seed, 'bech32'))).toBe(true)
    }
  })

  it('accepts the same address in upper case (case-insensitive)', () => {
    expect(isValidSparkAddress(valid.toUpperCase())).toBe(true)
  })

  it.each([6, 10, 40, 80, 86])('rejects the address with the character at %i flipped', (index) => {
    const broken = flip(valid, index)
    expect(broken).toHaveLength(87)
    expect(isValidSparkAddress(broken)).toBe(false)
    expect(sparkAddressProblem(broken)).toContain('checksum')
  })

  it('rejects every single-character flip of the data part', () => {
    for (let i = 6; i < valid.length; i++) expect(isValidSparkAddress(flip(valid, i))).toBe(false)
  })

  it('rejects two swapped adjacent characters', () => {
    const i = valid.slice(6).search(/(.)(?!\1)./) + 6
    const swapped = valid.slice(0, i) + valid[i + 1] + valid[i] + valid.slice(i + 2)
    expect(isValidSparkAddress(swapped)).toBe(false)
  })

  it.each([
    ['mixed case', () => valid.slice(0, 20) + valid.slice(20).toUpperCase(), 'not mixed'],
    ['Spark1 prefix with mixed case', () => 'S' + valid.slice(1), 'not mixed'],
    ['wrong prefix', () => encodeBech32('spork', words(75, 1)), 'start with "spark1"'],
    ['bitcoin address', () => 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'start with "spark1"'],
    ['86 characters', () => encodeBech32('spark', words(74, 1)), 'exactly 87 characters'],
    ['88 characters', () => encodeBech32('spark', words(76, 1)), 'exactly 87 characters'],
    ['character outside the charset', () => valid.slice(0, 30) + 'b' + valid.slice(31), 'not valid bech32'],
    ['sparkrt1 (regtest hrp)', () => encodeBech32('sparkrt', words(73, 1)), 'start with "spark1"'],
    ['empty', () => '', 'start with "spark1"']
  ])('rejects %s', (_name, make, message) => {
    const s = make()
    expect(isValidSparkAddress(s)).toBe(false)
    expect(sparkAddressProblem(s)).toContain(message)
  })

  it('rejects non-strings without throwing', () => {
    expect(isValidSparkAddress(undefined as unknown as string)).toBe(false)
    expect(isValidSparkAddress(42 as unknown as string)).toBe(false)
  })
})
