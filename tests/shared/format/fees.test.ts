import { describe, expect, it } from 'vitest'
import { rateDetailLines } from '../../../src/shared/format/fees'

describe('rate and fee members in the operator’s words', () => {
  it('labels the service’s members plainly and formats fees in the sending currency', () => {
    const lines = rateDetailLines(
      {
        counterpartyMultiplier: 1,
        counterpartyFixedFee: 0,
        gridApiMultiplier: 1.02,
        gridApiFixedFee: 10,
        gridApiVariableFeeRate: 0.003,
        gridApiVariableFeeAmount: 375
      },
      { code: 'USD', decimals: 2 }
    )
    expect(lines.map((l) => [l.label, l.value])).toEqual([
      ['Receiving side’s rate multiplier', '× 1'],
      ['Receiving side’s fixed fee', '0.00 USD'],
      ['Service rate multiplier', '× 1.02'],
      ['Service fixed fee', '0.10 USD'],
      ['Service variable fee rate', '0.3%'],
      ['Service variable fee', '3.75 USD']
    ])
    expect(lines.some((l) => l.label.includes('gridApi'))).toBe(false)
  })

  it('reads the spec’s serviceApi* names alike; unknown members and currencies are said as they are', () => {
    expect(rateDetailLines({ serviceApiFixedFee: 10 }, undefined)).toEqual([
      { key: 'serviceApiFixedFee', label: 'Service fixed fee', value: '10 minor units' }
    ])
    expect(rateDetailLines({ surcharge: 'x' }, { code: 'USD', decimals: 2 })).toEqual([
      { key: 'surcharge', label: 'surcharge', value: 'x' }
    ])
  })
})
