import { describe, expect, it } from 'vitest'
import { MISSING_FIELD_MESSAGE, missingFieldErrors } from '../../../src/shared/gate'

describe('the gate’s 422 to an Approve, as the prompt’s field errors', () => {
  it('maps each missing field to the operator’s sentence, keyed by its name', () => {
    const body = {
      code: 'MISSING_RECEIVER_INFO',
      message: 'Approving needs BIRTH_DATE, ADDRESS, which the sender requires',
      missingFields: ['BIRTH_DATE', 'ADDRESS']
    }
    expect(missingFieldErrors(body)).toEqual({
      BIRTH_DATE: [MISSING_FIELD_MESSAGE],
      ADDRESS: [MISSING_FIELD_MESSAGE]
    })
    expect(JSON.stringify(missingFieldErrors(body))).not.toContain('Approving needs')
  })

  it('reads nothing else as missing fields: other refusals, no names, names that are not receiver fields', () => {
    expect(missingFieldErrors({ code: 'TOO_LATE', message: 'The safety margin has passed' })).toBeNull()
    expect(missingFieldErrors({ code: 'MISSING_RECEIVER_INFO', message: 'x', missingFields: [] })).toBeNull()
    expect(missingFieldErrors({ code: 'MISSING_RECEIVER_INFO', message: 'x' })).toBeNull()
    expect(missingFieldErrors({ code: 'MISSING_RECEIVER_INFO', message: 'x', missingFields: ['__proto__'] })).toBeNull()
    expect(missingFieldErrors('MISSING_RECEIVER_INFO')).toBeNull()
    expect(missingFieldErrors(undefined)).toBeNull()
  })
})
