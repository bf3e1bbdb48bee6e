import { useChannelMutation } from '../data/channel-query'
import { useUpdateStatus } from '../data/updates'

/**
 * A downloaded update waits for the operator: nothing installs until they click. Main refuses the restart, in words,
 * while money is in flight; the banner shows why and stays.
 */
export function UpdateBanner() {
  const status = useUpdateStatus()
  const installing = useChannelMutation('updates.install')
  const refused = installing.error?.message ?? null
  const busy = installing.busy
  if (status?.state !== 'ready') return null
  const install = () => void installing.run(null)
  return (
    <section className="notice" role="status" aria-label="Update" data-testid="update-banner">
      <p>
        <strong>Update ready</strong> — Paydesk {status.version} was downloaded and verified.{' '}
        <button disabled={busy} onClick={install}>
          Restart to install
        </button>
      </p>
      {refused && <p className="result result-bad">{refused}</p>}
    </section>
  )
}
