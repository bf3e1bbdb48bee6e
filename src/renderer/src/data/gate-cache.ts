import type { QueryClient } from '@tanstack/react-query'
import type { GateEvent } from '../../../shared/gate'
import type { ChannelName, ChannelOutput } from '../../../shared/ipc/contract'
import { channelKey, invalidateChannels, queryClient } from './query-client'

/** Which reads each kind of the gate's log entries changes (every entry is a new line of the log). */
const READS_OF: Record<string, readonly ChannelName[]> = {
  webhook: [],
  prompt: ['gate.prompts'],
  decision: ['gate.prompts', 'gate.failedApprovals'],
  'decision-sent': [],
  rules: ['gate.rules.get'],
  'pre-approval': ['gate.preApprovals.list'],
  'receiver-info': ['gate.receiverInfo.get']
}

/**
 * One entry of the active profile's gate stream reaches the page: a decided payment leaves the prompts at once (patched
 * in the cache, before main's answer to the re-read), and the reads the entry changes ask again.
 */
export function applyGateEvent(event: GateEvent, client: QueryClient = queryClient): Promise<void> {
  if (event.kind === 'decision' && typeof event.data['transactionId'] === 'string') {
    const decided = event.data['transactionId']
    client.setQueryData<ChannelOutput<'gate.prompts'>>(channelKey('gate.prompts', null), (old) =>
      old ? { ...old, prompts: old.prompts.filter((p) => p.transactionId !== decided) } : old
    )
  }
  // An unknown kind may change anything the gate holds: ask everything again rather than show something stale.
  const reads = READS_OF[event.kind] ?? ['gate.prompts', 'gate.rules.get', 'gate.preApprovals.list']
  return invalidateChannels(['gate.log', ...reads], client)
}
