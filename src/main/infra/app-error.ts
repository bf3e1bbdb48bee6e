import type { IpcError, IpcErrorCode } from '../../shared/ipc/define'

/**
 * A failure with a sentence for the operator. Services throw it; the IPC layer turns it into `{ ok: false, error }`.
 * Never put a secret, an Authorization header or a raw request into `message` or `details`.
 */
export class AppError extends Error {
  readonly code: IpcErrorCode
  readonly serviceCode: string | undefined
  readonly httpStatus: number | undefined
  readonly fieldErrors: Record<string, string[]> | undefined
  readonly actionId: string | undefined
  readonly maybeApplied: boolean | undefined

  constructor(
    code: IpcErrorCode,
    message: string,
    extra: {
      serviceCode?: string
      httpStatus?: number
      fieldErrors?: Record<string, string[]>
      actionId?: string
      maybeApplied?: boolean
      cause?: unknown
    } = {}
  ) {
    super(message, { cause: extra.cause })
    this.name = 'AppError'
    this.code = code
    this.serviceCode = extra.serviceCode
    this.httpStatus = extra.httpStatus
    this.fieldErrors = extra.fieldErrors
    this.actionId = extra.actionId
    this.maybeApplied = extra.maybeApplied
  }

  toIpcError(): IpcError {
    return {
      code: this.code,
      message: this.message,
      ...(this.serviceCode !== undefined && { serviceCode: this.serviceCode }),
      ...(this.httpStatus !== undefined && { httpStatus: this.httpStatus }),
      ...(this.fieldErrors !== undefined && { fieldErrors: this.fieldErrors }),
      ...(this.actionId !== undefined && { actionId: this.actionId }),
      ...(this.maybeApplied !== undefined && { maybeApplied: this.maybeApplied })
    }
  }
}
