import { useState } from 'react'
import { ConnectionDraft } from '../../../../shared/profile'
import { useChannelMutation } from '../../data/channel-query'
import { formatClock } from '../../format/time'

/** The boxes a connection test reads: what the service is asked with. */
interface DraftValues {
  baseUrl?: string | undefined
  tokenId?: string | undefined
  clientSecret?: string | undefined
}

export interface DraftTest {
  run(): void
  busy: boolean
  /** The last test's sentence while the boxes still hold what was tested (a changed box makes it stale: it goes). */
  outcome: { ok: boolean; message: string; checkedAt?: string; serviceCode?: string | undefined } | null
  /** The values as they are now failed their test: saving them asks first. */
  failed: boolean
}

/**
 * "Test connection" on a profile form before it is saved: main calls the service with the values as typed (the secret
 * goes main-ward for that call only). `profileId` names the profile being edited, whose stored secret main uses only
 * for the address it was given for. `reveal` shows the boxes' own errors when they cannot be tested as they are.
 */
export function useDraftTest(values: DraftValues, profileId: string | undefined, reveal: () => void): DraftTest {
  const testing = useChannelMutation('connection.testDraft')
  const now = [values.baseUrl ?? '', values.tokenId ?? '', values.clientSecret ?? ''].join('\n')
  const [tested, setTested] = useState<string | null>(null)
  const [unfit, setUnfit] = useState<string | null>(null)

  const run = () => {
    const draft = ConnectionDraft.safeParse({
      baseUrl: values.baseUrl,
      tokenId: values.tokenId,
      ...(values.clientSecret && { clientSecret: values.clientSecret }),
      ...(profileId !== undefined && { profileId })
    })
    setTested(now)
    if (!draft.success) {
      reveal()
      setUnfit('Correct the base URL and the API token id first: the test uses them as they are.')
      testing.clear()
      return
    }
    setUnfit(null)
    void testing.run(draft.data)
  }

  let outcome: DraftTest['outcome'] = null
  if (tested === now && !testing.busy) {
    if (unfit) outcome = { ok: false, message: unfit }
    else if (testing.last?.ok) outcome = testing.last.value
    else if (testing.last) outcome = { ok: false, message: testing.last.error.message }
  }
  return { run, busy: testing.busy, outcome, failed: outcome !== null && !outcome.ok && unfit === null }
}

/** The Test connection button and what the test said, in the form it tests. */
export function DraftTestRow({ test }: { test: DraftTest }) {
  const { outcome } = test
  return (
    <div className="draft-test">
      <button type="button" onClick={test.run} disabled={test.busy}>
        {test.busy ? 'Testing…' : 'Test connection'}
      </button>
      <div role="status" data-testid="draft-connection-result">
        {outcome && (
          <p className={outcome.ok ? 'result result-ok' : 'result result-bad'}>
            {outcome.ok ? '✓ ' : '✗ '}
            {outcome.message}
            {outcome.serviceCode && <code className="code">{outcome.serviceCode}</code>}
            {outcome.checkedAt && <span className="muted"> · checked {formatClock(outcome.checkedAt)}</span>}
          </p>
        )}
      </div>
    </div>
  )
}

/** Saving values that failed their test: said plainly, with the choice to save them anyway. */
export function SaveAnyway(props: { message: string; onSave(): void; onKeepEditing(): void }) {
  return (
    <div className="result result-warn" role="alert">
      <p>
        These values failed their connection test: {props.message} Saved as they are, the profile will not work until
        the service accepts them.
      </p>
      <div className="row">
        <button type="button" className="danger" onClick={props.onSave}>
          Save anyway
        </button>
        <button type="button" onClick={props.onKeepEditing}>
          Keep editing
        </button>
      </div>
    </div>
  )
}
