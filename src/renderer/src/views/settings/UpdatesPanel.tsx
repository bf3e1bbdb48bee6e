import { UpdateSettings, type UpdateStatus } from '../../../../shared/ipc/channels/desktop'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { useUpdateStatus } from '../../data/updates'
import { useFlatForm } from '../../ui/flat-form'
import { Field } from '../../ui/Field'

function describe(status: UpdateStatus | null): string {
  switch (status?.state) {
    case undefined:
      return ''
    case 'off':
      return 'Updates are off.'
    case 'unsupported':
      return status.message ?? 'Updates are not available here.'
    case 'idle':
      return status.message ?? 'Waiting for the next check.'
    case 'checking':
      return 'Checking for an update…'
    case 'downloading':
      return `Downloading Paydesk ${status.version ?? ''}…`
    case 'ready':
      return `Paydesk ${status.version ?? ''} is ready: restart to install it (banner above).`
    case 'error':
      return status.message ?? 'The last check failed.'
  }
}

const YES = 'yes'

/** Settings → Updates: off by default; an https feed; a check on demand. Installing always waits for the operator. */
export function UpdatesPanel() {
  const status = useUpdateStatus()
  const settings = useChannelQuery('updates.settings.get', null)
  if (status?.state === 'unsupported') return null
  const initial = settings.data ?? { enabled: false, feedUrl: null }
  // Keyed by what main holds: the form starts from the saved settings once they arrive.
  return <UpdatesForm key={JSON.stringify(initial)} initial={initial} status={status} />
}

function UpdatesForm(props: { initial: UpdateSettings; status: UpdateStatus | null }) {
  const { status } = props
  const form = useFlatForm(
    UpdateSettings,
    { enabled: props.initial.enabled ? YES : '', feedUrl: props.initial.feedUrl ?? '' },
    {
      toInput: (v) => ({
        enabled: v['enabled'] === YES,
        feedUrl: (v['feedUrl'] ?? '').trim() === '' ? null : v['feedUrl']
      }),
      // Every message is about the feed: it is the one box that can be wrong.
      boxOf: () => 'feedUrl'
    }
  )
  const saving = useChannelMutation('updates.settings.set')
  const checking = useChannelMutation('updates.check')
  const saved = saving.last?.ok === true
  const error = form.error('feedUrl') ?? saving.error?.message ?? checking.error?.message

  const save = async () => {
    checking.clear()
    saving.clear()
    const input = form.submit()
    if (input) await saving.run(input)
  }
  const check = () => {
    saving.clear()
    void checking.run(null)
  }

  return (
    <div className="panel form" aria-labelledby="updates-title">
      <h2 id="updates-title">Updates</h2>
      <label className="check">
        <input
          type="checkbox"
          checked={form.values['enabled'] === YES}
          onChange={(e) => form.set('enabled', e.target.checked ? YES : '')}
        />{' '}
        Look for updates
      </label>
      <Field
        id="u-feed"
        label="Update feed (https)"
        error={error}
        hint="Where your organisation publishes Paydesk releases. The download's checksum and signature are verified."
      >
        <input
          id="u-feed"
          type="url"
          value={form.values['feedUrl']}
          placeholder="https://updates.example.com/paydesk"
          onChange={(e) => form.set('feedUrl', e.target.value)}
          autoComplete="off"
        />
      </Field>
      <div className="row">
        <button onClick={() => void save()}>Save</button>
        <button disabled={status?.state === 'off'} onClick={check}>
          Check now
        </button>
      </div>
      <p className={saved ? 'result result-ok' : 'muted'} role="status">
        {saved ? `Saved. ${describe(status)}` : describe(status)}
      </p>
    </div>
  )
}
