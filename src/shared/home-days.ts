/**
 * Days Home's charts cover, today included. Apart from the channel's schemas (ipc/channels/home.ts) so the cache's
 * reader thread, which sums them, does not load zod and every API schema as it starts.
 */
export const HOME_DAYS = 30
