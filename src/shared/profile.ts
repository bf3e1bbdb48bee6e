import { z } from 'zod'

/** Where a profile points. Local is the embedded sandbox server; production moves real money. */
const PROFILE_ENVIRONMENTS = ['local', 'sandbox', 'production'] as const
export const ProfileEnvironment = z.enum(PROFILE_ENVIRONMENTS)
export type ProfileEnvironment = z.infer<typeof ProfileEnvironment>

export const DEFAULT_BASE_URL = 'https://api.lightspark.com/grid/2025-10-13'
export const LOCAL_PROFILE_ID = 'local'

export const ProfileId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'Profile id must be lower-case letters, digits and dashes')
export type ProfileId = z.infer<typeof ProfileId>

/** The addresses of this machine: the only hosts a profile may reach over plain http. */
function isLoopbackUrl(url: string): boolean {
  // No URL global here (src/shared runs everywhere): the authority is read by pattern, userinfo excluded by it.
  return /^https?:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?(\/|$)/i.test(url.trim())
}

const ProfileName = z.string().trim().min(1, 'Give the profile a name').max(60, 'Keep the name under 60 characters')
/**
 * A server Paydesk sends a credential to with every request (the Payments API's client secret, a gate's operator
 * token): https, or plain http only on this machine, where nobody on the way could read it.
 */
export function credentialedUrl(label: string, example: string) {
  return z
    .string()
    .trim()
    .url(`${label} must be a full URL such as ${example}`)
    .refine(
      (u) => /^https?:\/\//i.test(u),
      `${label} must start with https:// (or http:// for a server on this machine)`
    )
    .refine(
      (u) => !/^http:\/\//i.test(u) || isLoopbackUrl(u),
      'Use https://. Plain http:// is allowed only for a server on this machine (127.0.0.1, localhost or [::1]).'
    )
    .refine((u) => !/[?#]/.test(u), `${label} cannot contain a query or fragment`)
}

const BaseUrl = credentialedUrl('Base URL', 'https://api.example.com/2025-10-13')
const TokenId = z.string().trim().min(1, 'Enter the API token id').max(200)
/** Write-only: travels renderer → main once, is stored in the OS keychain and never sent back. */
export const ClientSecret = z.string().min(1, 'Enter the API client secret').max(500)

/** What the renderer may know about a profile. The secret itself is never part of it. */
export const ProfileView = z.object({
  id: ProfileId,
  name: z.string(),
  environment: ProfileEnvironment,
  baseUrl: z.string(),
  tokenId: z.string(),
  hasSecret: z.boolean()
})
export type ProfileView = z.infer<typeof ProfileView>

export const ProfileCreateInput = z.strictObject({
  name: ProfileName,
  environment: z.enum(['sandbox', 'production']),
  baseUrl: BaseUrl.default(DEFAULT_BASE_URL),
  tokenId: TokenId,
  clientSecret: ClientSecret.optional()
})
export type ProfileCreateInput = z.input<typeof ProfileCreateInput>

export const ProfileUpdateInput = z.strictObject({
  id: ProfileId,
  name: ProfileName.optional(),
  environment: z.enum(['sandbox', 'production']).optional(),
  baseUrl: BaseUrl.optional(),
  tokenId: TokenId.optional(),
  /** Moving a profile between sandbox and production changes which actions ask twice: main asks first. */
  confirmEnvironmentChange: z.literal(true).optional()
})
export type ProfileUpdateInput = z.infer<typeof ProfileUpdateInput>

/**
 * "Test connection" on a profile form before it is saved: the address and credentials as typed. The secret travels
 * renderer → main for this one call and is never stored, returned or logged. `profileId` names the profile being
 * edited: its stored secret is used only when the address and token id are still the ones it was given for.
 */
export const ConnectionDraft = z.strictObject({
  baseUrl: BaseUrl,
  tokenId: TokenId,
  clientSecret: ClientSecret.optional(),
  profileId: ProfileId.optional()
})
export type ConnectionDraft = z.infer<typeof ConnectionDraft>

export const ProfileList = z.object({ activeProfileId: ProfileId, profiles: z.array(ProfileView) })
export type ProfileList = z.infer<typeof ProfileList>
