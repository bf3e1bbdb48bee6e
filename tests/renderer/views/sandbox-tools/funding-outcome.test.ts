import { describe, expect, it } from 'vitest'
import { fundingOutcome } from '../../../../src/renderer/src/views/sandbox-tools/funding-outcome'

describe('a funding request that timed out is told once its outcome is known', () => {
  const asked = { accountId: 'InternalAccount:a', before: 10_000, amount: 2_500 }

  it('not known while the balance has not moved (or is not read yet)', () => {
    expect(fundingOutcome(asked, 10_000)).toEqual({ kind: 'unknown' })
    expect(fundingOutcome(asked, undefined)).toEqual({ kind: 'unknown' })
  })

  it('applied when the balance rose by exactly the amount', () => {
    expect(fundingOutcome(asked, 12_500)).toEqual({ kind: 'applied', after: 12_500 })
  })

  it('a balance moved by anything else is not claimed either way', () => {
    expect(fundingOutcome(asked, 9_000)).toEqual({ kind: 'changed', after: 9_000 })
    expect(fundingOutcome(asked, 15_000)).toEqual({ kind: 'changed', after: 15_000 })
  })
})
