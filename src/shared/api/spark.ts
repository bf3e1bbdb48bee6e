/**
 * Bech32 / bech32m (BIP-173 / BIP-350), implemented here so src/shared needs no dependency, and the Spark wallet
 * address rule of spec 2.6: starts with `spark1`, 87 characters, case-insensitive (but never mixed case), valid
 * bech32 checksum.
 */

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
const BECH32_CONST = 1
const BECH32M_CONST = 0x2bc830a3

type Bech32Variant = 'bech32' | 'bech32m'

function polymod(values: readonly number[]): number {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0
    for (let i = 0; i < 5; i++) {
      if ((top >>> i) & 1) chk = (chk ^ (GENERATORS[i] ?? 0)) >>> 0
    }
  }
  return chk
}

function hrpExpand(hrp: string): number[] {
  const out: number[] = []
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >> 5)
  out.push(0)
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31)
  return out
}

function checksumConst(variant: Bech32Variant): number {
  return variant === 'bech32' ? BECH32_CONST : BECH32M_CONST
}

/** Encodes 5-bit `data` words under a lower-case `hrp`, appending the 6-character checksum. */
export function encodeBech32(hrp: string, data: readonly number[], variant: Bech32Variant = 'bech32'): string {
  if (hrp.length === 0 || hrp !== hrp.toLowerCase()) throw new Error('bech32 hrp must be non-empty lower case')
  for (const d of data) {
    if (!Number.isInteger(d) || d < 0 || d > 31) throw new Error('bech32 data words must be integers 0..31')
  }
  const values = [...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]
  const mod = polymod(values) ^ checksumConst(variant)
  const checksum: number[] = []
  for (let i = 0; i < 6; i++) checksum.push((mod >>> (5 * (5 - i))) & 31)
  return hrp + '1' + [...data, ...checksum].map((d) => CHARSET[d]).join('')
}

interface DecodedBech32 {
  hrp: string
  /** 5-bit words without the checksum. */
  data: number[]
  variant: Bech32Variant
}

/**
 * Decodes a bech32 or bech32m string (no length limit beyond the caller's), or returns null when the case is mixed,
 * a character is outside the charset, or the checksum does not verify.
 */
export function decodeBech32(s: string): DecodedBech32 | null {
  if (s !== s.toLowerCase() && s !== s.toUpperCase()) return null
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 33 || c > 126) return null
  }
  const lower = s.toLowerCase()
  const sep = lower.lastIndexOf('1')
  if (sep < 1 || sep + 7 > lower.length) return null
  const hrp = lower.slice(0, sep)
  const data: number[] = []
  for (const ch of lower.slice(sep + 1)) {
    const d = CHARSET.indexOf(ch)
    if (d < 0) return null
    data.push(d)
  }
  const check = polymod([...hrpExpand(hrp), ...data])
  const variant: Bech32Variant | null = check === BECH32_CONST ? 'bech32' : check === BECH32M_CONST ? 'bech32m' : null
  if (variant === null) return null
  return { hrp, data: data.slice(0, -6), variant }
}

/** Converts between bit groups (8 -> 5 to encode bytes, 5 -> 8 to decode). */
export function convertBits(data: readonly number[], from: number, to: number, pad: boolean): number[] | null {
  let acc = 0
  let bits = 0
  const out: number[] = []
  const maxv = (1 << to) - 1
  for (const v of data) {
    if (v < 0 || v >> from !== 0) return null
    acc = (acc << from) | v
    bits += from
    while (bits >= to) {
      bits -= to
      out.push((acc >> bits) & maxv)
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv)
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    return null
  }
  return out
}

export const SPARK_ADDRESS_LENGTH = 87
export const SPARK_ADDRESS_PREFIX = 'spark1'

/** Why `s` is not a valid Spark address, or null when it is. */
export function sparkAddressProblem(s: string): string | null {
  if (!s.toLowerCase().startsWith(SPARK_ADDRESS_PREFIX)) return 'Spark wallet address must start with "spark1"'
  if (s.length !== SPARK_ADDRESS_LENGTH) {
    return `Spark wallet address must be exactly ${SPARK_ADDRESS_LENGTH} characters long (got ${s.length})`
  }
  if (s !== s.toLowerCase() && s !== s.toUpperCase()) {
    return 'Spark wallet address must be all lower case or all upper case, not mixed'
  }
  const decoded = decodeBech32(s)
  if (decoded === null || decoded.hrp !== 'spark') {
    return 'Spark wallet address is not valid bech32: a character is mistyped or the checksum does not match'
  }
  return null
}

/** True when `s` starts with `spark1`, is 87 characters, has a single case and a valid bech32/bech32m checksum. */
export function isValidSparkAddress(s: string): boolean {
  return typeof s === 'string' && sparkAddressProblem(s) === null
}
