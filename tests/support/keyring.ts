import { randomBytes } from 'node:crypto'

/**
 * Tests that touch the OS keychain use the real one (keytar → Secret Service), never a mock. They must run under
 * `scripts/with-keyring.sh` (npm test does), which gives them an isolated, unlocked gnome-keyring.
 */
export function requireRealKeyring(): void {
  if (!process.env['PAYDESK_KEYRING_INNER']) {
    throw new Error('This test needs the real OS keychain: run it through scripts/with-keyring.sh (npm test does).')
  }
}

/** A keychain service name unique to one test file, so parallel test files never share entries. */
export function testKeychainService(label: string): string {
  return `Paydesk-test-${label}-${randomBytes(4).toString('hex')}`
}
