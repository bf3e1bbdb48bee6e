/* eslint-disable @typescript-eslint/no-explicit-any -- answers under test are read by assertions */
import { afterEach, expect, it } from 'vitest'
import { MISSING_FIELD_MESSAGE } from '../../../../src/shared/gate'
import { requireRealKeyring } from '../../../support/keyring'
import { linksRig, type LinksRig } from '../../domain/gate/gate-rig'

requireRealKeyring()

let r: LinksRig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

it('an Approve the gate refuses for missing mandatory fields comes back as field errors, not the gate’s sentence', async () => {
  r = await linksRig()
  expect(await r.call('gate.connect', { url: r.gateUrl, token: r.rig.token })).toMatchObject({ ok: true })
  const paid = await r.rig.receive(await r.rig.customer(), 250_00)
  expect(paid.webhook.answer.status).toBe(202)

  const refused = await r.call('gate.answer', { transactionId: paid.id, answer: { action: 'approve' } })
  expect(refused).toEqual({
    ok: false,
    error: {
      code: 'INVALID_INPUT',
      serviceCode: 'MISSING_RECEIVER_INFO',
      httpStatus: 422,
      message:
        'The sender requires information the gate has no value for: fill in each field marked, then approve again.',
      fieldErrors: { BIRTH_DATE: [MISSING_FIELD_MESSAGE] }
    }
  })
  // The prompt is still open: filled in, the same Approve goes through.
  const approved = await r.call('gate.answer', {
    transactionId: paid.id,
    answer: { action: 'approve', receiverCustomerInfo: { BIRTH_DATE: '1990-01-02' } }
  })
  expect(approved).toMatchObject({ ok: true, value: { decision: { data: { outcome: 'approved' } } } })

  // Any other refusal keeps its general sentence, with the gate's words quoted.
  const late = await r.call('gate.answer', { transactionId: paid.id, answer: { action: 'approve' } })
  expect(late).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
  expect((late as any).error.fieldErrors).toBeUndefined()
})
