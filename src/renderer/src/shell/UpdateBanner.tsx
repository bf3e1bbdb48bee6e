import { useState } from 'react'
import { paydesk } from '../bridge/paydesk'
import { useUpdates } from '../stores/updates'

/**
 * A downloaded update waits for the operator: nothing installs until they click. Main refuses the restart, in words,
 * while money is in flight; the banner shows why and stays.
 */
export function UpdateBanner() {
  const status = useUpdates((s) => s.status)
  const [refused, setRefused] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (status?.state !== 'ready') return null
  const install = async () => {
    setBusy(true)
    const result = await paydesk.invoke('updates.install', null)
    setBusy(false)
    setRefused(result.ok ? null : result.error.message)
  }
  return (
    <section className="notice" role="status" aria-label="Update" data-testid="update-banner">
      <p>
        <strong>Update ready</strong> — Paydesk {status.version} was downloaded and verified.{' '}
        <button disabled={busy} onClick={() => void install()}>
          Restart to install
        </button>
      </p>
      {refused && <p className="result result-bad">{refused}</p>}
    </section>
  )
}
