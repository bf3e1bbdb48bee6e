import { describe, expect, it } from 'vitest'
import { parseArgs, UsageError } from '../../../src/sandbox/cli'
import { createSandboxServer } from '../../../src/sandbox/server'
import { SandboxStartMessage } from '../../../src/shared/sandbox-process'
import { createCustomer, DEFER, fakeClock, KNOWN_RECEIVER, platformFor, start } from '../util'

// The approval deferral after a 202: the service's 5 s by default, and a longer window only when a test (or a demo)
// asks for one, so an end-to-end test holds a prompt instead of racing the real deadline. On a stepped clock, so each
// edge is exact whatever the machine's load.

async function deadlineEdges(approvalDeferralSeconds: number | undefined, deadlineMs: number): Promise<void> {
  const clock = fakeClock()
  const fc = await start({
    now: clock.now,
    timeScale: 1,
    ...(approvalDeferralSeconds !== undefined && { approvalDeferralSeconds })
  })
  const own = await platformFor(fc)
  try {
    const cust = await createCustomer(fc, KNOWN_RECEIVER)
    const waits = await own.receive(cust.id, DEFER)
    const approved = await own.receive(cust.id, DEFER)
    clock.advance(deadlineMs - 1)
    expect((await fc.get(`/transactions/${waits.id}`)).body.status).toBe('PENDING')
    expect((await fc.post(`/transactions/${approved.id}/approve`, {})).status).toBe(200)
    clock.advance(1)
    expect((await fc.get(`/transactions/${waits.id}`)).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_TIMED_OUT'
    })
    expect((await fc.get(`/transactions/${approved.id}`)).body.status).not.toBe('FAILED')
  } finally {
    await own.close()
    await fc.sb.close()
  }
}

describe('approval deferral window', () => {
  it('is the service’s 5 s when not set', async () => {
    await deadlineEdges(undefined, 5_000)
  })

  it('is the stretched window when a test sets one: approve still taken just before it, timed out at it', async () => {
    await deadlineEdges(30, 30_000)
  })

  it('is refused when it is not a positive number of seconds up to an hour', async () => {
    for (const bad of [0, -1, Number.NaN, 3601]) {
      await expect(createSandboxServer({ memory: true, approvalDeferralSeconds: bad })).rejects.toThrow(
        /approvalDeferralSeconds must be a positive number of seconds up to 3600/
      )
    }
  })

  it('is an option of the command line and of the process start message, validated at each', () => {
    expect(parseArgs(['--approval-deferral', '30']).approvalDeferralSeconds).toBe(30)
    expect(parseArgs(['--approval-deferral=2.5']).approvalDeferralSeconds).toBe(2.5)
    expect(parseArgs([]).approvalDeferralSeconds).toBeUndefined()
    for (const bad of ['0', 'soon', '7200']) expect(() => parseArgs(['--approval-deferral', bad])).toThrow(UsageError)
    const message = { type: 'start', port: 0, dataFile: 'x.db', tokenId: 't', clientSecret: 's' }
    expect(SandboxStartMessage.parse({ ...message, approvalDeferralSeconds: 30 }).approvalDeferralSeconds).toBe(30)
    expect(SandboxStartMessage.safeParse({ ...message, approvalDeferralSeconds: 0 }).success).toBe(false)
  })
})
