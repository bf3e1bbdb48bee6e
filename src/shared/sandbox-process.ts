import { z } from 'zod'

/**
 * Messages between the backend and the Local sandbox's own process (Node `fork` in browser mode and tests,
 * Electron `utilityProcess` in the desktop app). The start message carries the credentials, so they never appear
 * on a command line or in the environment.
 */
export const SandboxStartMessage = z.object({
  type: z.literal('start'),
  port: z.number().int().min(0).max(65535),
  dataFile: z.string().min(1),
  tokenId: z.string().min(1),
  clientSecret: z.string().min(1),
  generateTransactions: z.number().int().positive().optional(),
  /** Seconds a 202'd payment waits for approve/reject (default the service's 5): a test-only stretch of that window. */
  approvalDeferralSeconds: z.number().positive().max(3600).optional(),
  nativeBinding: z.string().optional()
})
export type SandboxStartMessage = z.infer<typeof SandboxStartMessage>

const SandboxCloseMessage = z.object({ type: z.literal('close') })

export const SandboxParentMessage = z.discriminatedUnion('type', [SandboxStartMessage, SandboxCloseMessage])
export type SandboxParentMessage = z.infer<typeof SandboxParentMessage>

export const SandboxChildMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ready'),
    pid: z.number().int(),
    baseUrl: z.string().url(),
    corruptFileMovedTo: z.string().optional()
  }),
  z.object({ type: z.literal('failed'), message: z.string() }),
  z.object({ type: z.literal('log'), message: z.string() })
])
export type SandboxChildMessage = z.infer<typeof SandboxChildMessage>
