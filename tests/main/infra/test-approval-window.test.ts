/**
 * PAYDESK_TEST_APPROVAL_WINDOW_MS, the e2e specs' stretch of the Local approval window: read only when set (and not in
 * an installed app), validated, and passed to the Local sandbox (its deferral after a 202) and the Local gate (its
 * deadline, and a fallback 5 s before it) alike. Unset, the real protocol's 5 s / 4 s stay.
 */
import { describe, expect, it } from 'vitest'
import { GateConfig } from '../../../src/gate/config'
import { localGateTiming, startLocalSandbox, testApprovalWindowFromEnv } from '../../../src/main/infra/local-sandbox'
import type { SandboxProcess } from '../../../src/main/infra/child-launcher'
import { SandboxStartMessage } from '../../../src/shared/sandbox-process'
import { tempDir } from '../helpers'

describe('PAYDESK_TEST_APPROVAL_WINDOW_MS', () => {
  it('is nothing unless set, and ignored by an installed app', () => {
    expect(testApprovalWindowFromEnv({}, false)).toBeUndefined()
    expect(testApprovalWindowFromEnv({ PAYDESK_TEST_APPROVAL_WINDOW_MS: '' }, false)).toBeUndefined()
    expect(testApprovalWindowFromEnv({ PAYDESK_TEST_APPROVAL_WINDOW_MS: '30000' }, false)).toBe(30_000)
    expect(testApprovalWindowFromEnv({ PAYDESK_TEST_APPROVAL_WINDOW_MS: '30000' }, true)).toBeUndefined()
  })

  it('refuses a value that is not whole milliseconds from 10 s to an hour', () => {
    for (const bad of ['soon', '9999', '3600001', '30000.5', '-30000', '1e5'])
      expect(() => testApprovalWindowFromEnv({ PAYDESK_TEST_APPROVAL_WINDOW_MS: bad }, false)).toThrow(
        /PAYDESK_TEST_APPROVAL_WINDOW_MS must be a whole number of milliseconds from 10000 to 3600000/
      )
  })

  it('gives the Local gate that deadline and its fallback 5 s before it, which the gate’s configuration accepts', () => {
    for (const window of [10_000, 30_000, 3_600_000]) {
      const timing = localGateTiming(window)
      expect(timing).toEqual({ serviceDeadlineMs: window, marginMs: window - 5_000 })
      const config = GateConfig.safeParse({
        webhookPublicKey: 'pem',
        serviceBaseUrl: 'http://127.0.0.1:1/2025-10-13',
        serviceTokenId: 't',
        serviceClientSecret: 's',
        receiverInfoKey: '11'.repeat(32),
        ...timing
      })
      expect(config.success, JSON.stringify(config.error?.issues)).toBe(true)
    }
  })

  it('reaches the Local sandbox’s process as its approval deferral, in seconds; unset, the start says nothing', async () => {
    const { dir, cleanup } = await tempDir('approval-window')
    try {
      const starts: unknown[] = []
      const launcher = (): SandboxProcess => ({
        pid: undefined,
        postMessage: (m) => void starts.push(m),
        onMessage: () => undefined,
        onSpawn: () => undefined,
        onExit: () => undefined,
        kill: () => undefined
      })
      const base = { dataDir: dir, tokenId: 'tok', clientSecret: 'secret-value', log: () => {}, launcher }
      await startLocalSandbox({ ...base, approvalWindowMs: 30_000 })
      await startLocalSandbox(base)
      const [stretched, plain] = starts.map((m) => SandboxStartMessage.parse(m))
      expect(stretched?.approvalDeferralSeconds).toBe(30)
      expect(plain?.approvalDeferralSeconds).toBeUndefined()
    } finally {
      await cleanup()
    }
  })
})
