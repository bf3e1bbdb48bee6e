/**
 * The contract's channel names, and nothing else: no zod. The renderer and the preload only need to know a name is a
 * channel, and importing the contract for that built every schema of every channel while the page started (about
 * 0.2 s of the renderer's start-up). `contract.ts` checks, at compile time, that this list and its channels agree.
 */
export const CHANNEL_NAMES = [
  'app.info',
  'profiles.list',
  'profiles.create',
  'profiles.update',
  'profiles.remove',
  'profiles.switch',
  'profiles.setSecret',
  'profiles.clearSecret',
  'app.reportForeground',
  'notices.list',
  'notices.dismiss',
  'connection.test',
  'connection.testDraft',
  'transactions.query',
  'transactions.get',
  'customers.query',
  'customers.get',
  'customers.create',
  'externalAccounts.query',
  'externalAccounts.create',
  'externalAccounts.remove',
  'externalAccounts.update',
  'externalAccounts.follow',
  'internalAccounts.list',
  'discoveries.list',
  'transfers.send',
  'transfers.check',
  'transfers.resolve',
  'transfers.sendAgain',
  'transfers.journal',
  'sandbox.fund',
  'sandbox.receive',
  'sandbox.send',
  'sync.status',
  'sync.now',
  'sync.restartLocalSandbox',
  'quotes.create',
  'quotes.get',
  'quotes.execute',
  'quotes.open',
  'desktop.takeLaunchLink',
  'desktop.contextMenu',
  'appearance.get',
  'appearance.set',
  'updates.settings.get',
  'updates.settings.set',
  'updates.status',
  'updates.check',
  'updates.install',
  'transactions.export',
  'exports.cancel',
  'gate.link',
  'gate.connect',
  'gate.disconnect',
  'gate.prompts',
  'gate.answer',
  'gate.log',
  'gate.rules.get',
  'gate.rules.set',
  'gate.preApprovals.list',
  'gate.preApprovals.add',
  'gate.receiverInfo.get',
  'gate.receiverInfo.set',
  'gate.failedApprovals',
  'history.actions',
  'home.figures'
] as const

export type ChannelName = (typeof CHANNEL_NAMES)[number]

const NAMES: ReadonlySet<string> = new Set(CHANNEL_NAMES)

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && NAMES.has(name)
}
