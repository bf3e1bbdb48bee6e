import { useEffect, useState } from 'react'
import { UpdateSettings, type UpdateStatus } from '../../../../shared/ipc/channels/desktop'
import { paydesk } from '../../bridge/paydesk'
import { useUpdates } from '../../stores/updates'
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

/** Settings → Updates: off by default; an https feed; a check on demand. Installing always waits for the operator. */
export function UpdatesPanel() {
  const status = useUpdates((s) => s.status)
  const [enabled, setEnabled] = useState(false)
  const [feedUrl, setFeedUrl] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)

  useEffect(() => {
    void paydesk.invoke('updates.settings.get', null).then((r) => {
      if (!r.ok) return
      setEnabled(r.value.enabled)
      setFeedUrl(r.value.feedUrl ?? '')
    })
  }, [])

  if (status?.state === 'unsupported') return null

  const save = async () => {
    setSaved(false)
    const input = UpdateSettings.safeParse({ enabled, feedUrl: feedUrl.trim() === '' ? null : feedUrl })
    if (!input.success) return setError(input.error.issues[0]?.message ?? 'Check the feed address')
    const result = await paydesk.invoke('updates.settings.set', input.data)
    if (!result.ok) return setError(result.error.message)
    setError(null)
    setSaved(true)
  }
  const check = async () => {
    const result = await paydesk.invoke('updates.check', null)
    setError(result.ok ? null : result.error.message)
  }

  return (
    <div className="panel form" aria-labelledby="updates-title">
      <h2 id="updates-title">Updates</h2>
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Look for updates
      </label>
      <Field
        id="u-feed"
        label="Update feed (https)"
        error={error ?? undefined}
        hint="Where your organisation publishes Paydesk releases. The download's checksum and signature are verified."
      >
        <input
          id="u-feed"
          type="url"
          value={feedUrl}
          placeholder="https://updates.example.com/paydesk"
          onChange={(e) => setFeedUrl(e.target.value)}
          autoComplete="off"
        />
      </Field>
      <div className="row">
        <button onClick={() => void save()}>Save</button>
        <button disabled={status?.state === 'off'} onClick={() => void check()}>
          Check now
        </button>
      </div>
      <p className={saved ? 'result result-ok' : 'muted'} role="status">
        {saved ? `Saved. ${describe(status)}` : describe(status)}
      </p>
    </div>
  )
}
