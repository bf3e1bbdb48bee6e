import { describe, expect, it } from 'vitest'
import { createQueryClient } from '../../../src/renderer/src/data/query-client'
import { knownNames, nameIds, nameNotice } from '../../../src/renderer/src/shell/toast-names'

const JANE_US = 'ExternalAccount:0195a1b2-0000-7000-8000-000000009012'
const JANE = 'Customer:0195a1b2-0000-7000-8000-00000000000a'

describe('a notice names people and accounts', () => {
  it('says an account by its label, the id kept for a copy button', () => {
    const names = { [JANE_US]: 'Jane Smith · US bank …9012' }
    expect(nameNotice({ title: 'Transfer completed', body: `$1,250.00 reached ${JANE_US}.` }, names)).toEqual({
      title: 'Transfer completed',
      body: '$1,250.00 reached Jane Smith · US bank …9012.',
      ids: [JANE_US]
    })
  })

  it('says what an id is when no name is known, capitalised where a sentence or a grouped line starts', () => {
    const named = nameIds(`${JANE_US} was removed. ${JANE} has 2 accounts.\nTransaction:tx-1 failed`, {})
    expect(named.text).toBe('An external account was removed. A customer has 2 accounts.\nA transaction failed')
    expect(named.ids).toEqual([JANE_US, JANE, 'Transaction:tx-1'])
    expect(nameIds(`Money to InternalAccount:ia-7, twice InternalAccount:ia-7`, {})).toEqual({
      text: 'Money to an internal account, twice an internal account',
      ids: ['InternalAccount:ia-7']
    })
  })

  it('leaves words without ids as they are, and shows a name as written even at the start', () => {
    expect(nameIds('Payment waiting for your approval', {})).toEqual({
      text: 'Payment waiting for your approval',
      ids: []
    })
    expect(nameIds(`${JANE} is verified`, { [JANE]: 'pc-42' }).text).toBe('pc-42 is verified')
    // Not a platform id: a word with a colon stays.
    expect(nameIds('Note: Platform:abc stays', {}).text).toBe('Note: Platform:abc stays')
  })
})

describe('the names the page holds', () => {
  it('reads the names transactions answers came with and labels the lists’ rows as main does', () => {
    const client = createQueryClient()
    client.setQueryData(['transactions.query', { offset: 0 }], {
      profileId: 'p1',
      rows: [],
      names: { 'InternalAccount:ia-1': 'Platform · USD' }
    })
    client.setQueryData(['customers.query', {}], {
      profileId: 'p1',
      rows: [{ id: JANE, platformCustomerId: 'pc-1', fullName: 'Jane Smith' }, { id: 'Customer:loose' }]
    })
    client.setQueryData(['externalAccounts.query', {}], {
      profileId: 'p1',
      rows: [
        {
          id: JANE_US,
          customerId: JANE,
          accountInfo: { accountType: 'US_ACCOUNT', accountNumber: '123456789012' }
        },
        { id: 'ExternalAccount:no-info' }
      ]
    })
    client.setQueryData(['transactions.get', { id: 'Transaction:x' }], {
      profileId: 'p2',
      transaction: null,
      names: { 'Customer:other': 'Someone Else' }
    })
    expect(knownNames(client, 'p1')).toEqual({
      'InternalAccount:ia-1': 'Platform · USD',
      [JANE]: 'Jane Smith',
      [JANE_US]: 'Jane Smith · US bank …9012'
    })
    // Without a profile to keep to, every answer's names.
    expect(knownNames(client)).toMatchObject({ 'Customer:other': 'Someone Else' })
  })
})
