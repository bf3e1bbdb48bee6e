import { AppError } from '../infra/app-error'
import type { StoredProfile } from './profiles'

/**
 * The production rules, in one place for every service that moves money: on a production profile an action that moves
 * real money needs the operator's explicit confirmation, and the sandbox's simulations do not exist at all.
 */

export function isProduction(profile: Pick<StoredProfile, 'environment'>): boolean {
  return profile.environment === 'production'
}

/** Refuses, with `sentence` (what would happen and that nothing did), unless the operator confirmed. */
export function requireProductionConfirmation(
  production: boolean,
  confirmed: boolean | undefined,
  sentence: string
): void {
  if (production && confirmed !== true)
    throw new AppError('CONFIRMATION_REQUIRED', `This is a production profile: ${sentence}`)
}

/** Sandbox-only tools (funding, simulated payments) on a production profile are refused with `sentence`. */
export function requireSandboxProfile(profile: Pick<StoredProfile, 'environment'>, sentence: string): void {
  if (isProduction(profile)) throw new AppError('FORBIDDEN', sentence)
}
