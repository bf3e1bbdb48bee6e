import { z } from 'zod'
import { ApprovalRules, AutoDecision } from '../../shared/ipc/channels/approvals'
import { readFileIfExists, setAside } from './atomic-file'
import { cacheKeyAccount, type SecretStore } from './keychain'
import { openJson, readSealed, writeSealed } from './sealed-file'

/**
 * The approval state of a profile on disk (rules, automatic decisions, payments already announced): one sealed file,
 * written atomically. Its format changes here and nowhere else.
 */

const DEFAULT_RULES: ApprovalRules = {
  enabled: false,
  maxAmountByCurrency: {},
  allowedSenders: [],
  requireKycApproved: true
}

const ApprovalStateFile = z.object({
  version: z.literal(1),
  rules: ApprovalRules,
  decisions: z.array(AutoDecision),
  /** Payments already announced (id → first seen), so a restart does not notify again. */
  seen: z.record(z.string(), z.string())
})
export type ApprovalState = z.infer<typeof ApprovalStateFile>

/**
 * Whether a profile's saved approval rules are on, read without opening its session (the backend keeps a session
 * running for such profiles even when another one is active). A missing, unreadable or undecryptable file reads as
 * off; nothing is set aside or created here, the session does that when it opens.
 */
export async function savedRulesEnabled(file: string, secrets: SecretStore, profileId: string): Promise<boolean> {
  const data = await readFileIfExists(file)
  if (!data) return false
  const stored = await secrets.get(cacheKeyAccount(profileId))
  if (!stored) return false
  try {
    const parsed = ApprovalStateFile.safeParse(openJson(Buffer.from(stored, 'base64'), data))
    return parsed.success && parsed.data.rules.enabled
  } catch {
    return false
  }
}

/**
 * Reads the approval state. A damaged file is set aside (kept) and reported through `onDamage`; the rules then start
 * from the defaults, which are off, so nothing is approved on rules nobody can see.
 */
export async function readApprovalState(
  file: string,
  key: Buffer,
  log: (m: string) => void,
  onDamage?: (setAsideAs: string | undefined) => void
): Promise<ApprovalState> {
  const read = await readSealed(file, key, log)
  const parsed = ApprovalStateFile.safeParse(read.value)
  const state = parsed.success ? parsed.data : { version: 1 as const, rules: DEFAULT_RULES, decisions: [], seen: {} }
  if (read.setAsideAs !== undefined) onDamage?.(read.setAsideAs)
  else if (read.value !== undefined && !parsed.success) {
    const where = await setAside(file, 'unreadable')
    log(`${file} is not an approval state Paydesk can read and was set aside`)
    onDamage?.(where)
  }
  return state
}

export function writeApprovalState(file: string, key: Buffer, state: ApprovalState): Promise<void> {
  return writeSealed(file, key, state)
}
