import { z } from 'zod'
import { ReceiverCustomerInfo } from '../approval-rules'

/**
 * What the gate answers about a receiving customer when the sender asks (receiverCustomerInfo, published field names
 * such as FULL_NAME, BIRTH_DATE, NATIONALITY, POSTAL_ADDRESS). Operators keep it per customer; the gate stores it
 * encrypted and never logs it.
 */
export const ReceiverInfoPutRequest = z.strictObject({ info: ReceiverCustomerInfo })
export type ReceiverInfoPutRequest = z.infer<typeof ReceiverInfoPutRequest>

export const ReceiverInfo = z.looseObject({
  customerId: z.string(),
  info: z.record(z.string(), z.unknown()),
  updatedBy: z.string(),
  updatedAt: z.string()
})
export type ReceiverInfo = z.infer<typeof ReceiverInfo>
