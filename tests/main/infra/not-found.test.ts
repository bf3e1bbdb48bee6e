import { describe, expect, it } from 'vitest'
import { notFoundSentence } from '../../../src/main/infra/not-found'

describe('notFoundSentence', () => {
  it.each([
    ['REFERENCE_NOT_FOUND', '/grid/2025-10-13/customers/external-accounts/x', 'no such external account'],
    ['REFERENCE_NOT_FOUND', '/grid/2025-10-13/platform/external-accounts/x', 'no such external account'],
    ['REFERENCE_NOT_FOUND', '/grid/2025-10-13/sandbox/internal-accounts/x/fund', 'no such internal account'],
    ['REFERENCE_NOT_FOUND', '/grid/2025-10-13/transfer-out', 'source internal account or the destination external'],
    ['REFERENCE_NOT_FOUND', '/grid/2025-10-13/somewhere', 'no item with an id this request refers to'],
    ['EXTERNAL_ACCOUNT_NOT_FOUND', '/x', 'no such external account'],
    ['INTERNAL_ACCOUNT_NOT_FOUND', '/x', 'no such internal account'],
    ['TRANSACTION_NOT_FOUND', '/x', 'no such transaction'],
    ['USER_NOT_FOUND', '/x', 'no such customer'],
    ['QUOTE_NOT_FOUND', '/x', 'no such quote'],
    [undefined, '/x', 'no such item']
  ])('%s on %s names what is missing', (code, path, expected) => {
    expect(notFoundSentence(code, path)).toContain(expected)
  })
})
