import type { GateLink } from '../../../../shared/ipc/channels/gate'
import { gateChannels } from '../../../../shared/ipc/channels/gate'
import { useChannelMutation } from '../../data/channel-query'
import { formatClock } from '../../format/time'
import { useFlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame } from '../../ui/form-submit'
import { TextField } from '../../ui/FormFields'
import { ConfirmedSubmit, useProductionAsk } from './ConfirmTwice'
import { linkSummary } from './gate-text'

const TONE: Record<GateLink['state'], string> = {
  live: 'good',
  connecting: 'waiting',
  unreachable: 'bad',
  'signed-out': 'bad',
  none: 'neutral'
}

/** The link as it is: live, connecting, unreachable since when, signed out; with main's sentence about it. */
export function GateLinkStatus({ link, onRelink }: { link: GateLink; onRelink(): void }) {
  const unlinking = useChannelMutation('gate.disconnect', { invalidates: ['gate.link'] })
  return (
    <div className="panel gate-link" role="region" aria-label="Approval gate" data-testid="gate-link">
      <div className="panel-head">
        <h2>
          Approval gate{' '}
          <span className={`chip chip-${TONE[link.state]}`} data-testid="gate-link-state">
            {linkSummary(link, formatClock)}
          </span>
        </h2>
        {!link.managed && (
          <div className="row">
            <button onClick={onRelink}>Link another gate…</button>
            <button disabled={unlinking.busy} onClick={() => void unlinking.run(null)}>
              Unlink
            </button>
          </div>
        )}
      </div>
      <p className="muted">
        {link.managed ? 'Paydesk runs this profile’s gate on this machine' : 'Gate'}
        {link.url ? (
          <>
            {' '}
            at <code>{link.url}</code>
          </>
        ) : null}
        {link.lastEventAt ? ` · last entry ${formatClock(link.lastEventAt)}` : ''}
      </p>
      {link.message && (
        <p
          className={link.state === 'live' ? 'muted' : 'result result-bad'}
          role={link.state === 'live' ? undefined : 'alert'}
        >
          {link.message}
        </p>
      )}
      <FailedAction error={unlinking.error} />
    </div>
  )
}

const ConnectBoxes = gateChannels['gate.connect'].input.pick({ url: true, token: true })

/**
 * Links the profile to the gate its platform runs. The token is write-only: it goes to main (and the OS keychain) and
 * the box is emptied, never shown again.
 */
export function ConnectGateForm({ onDone }: { onDone?(): void }) {
  const ask = useProductionAsk()
  const form = useFlatForm(ConnectBoxes, { url: '', token: '' })
  const connecting = useChannelMutation('gate.connect', { invalidates: ['gate.link', 'gate.prompts', 'gate.log'] })
  const submit = async () => {
    const parsed = form.submit()
    if (!parsed) return
    const result = await connecting.run({ ...parsed, ...(ask.production && { confirmProduction: true }) })
    form.set('token', '')
    if (result.ok) onDone?.()
  }
  return (
    <FormFrame className="form" label="Link an approval gate" onSubmit={() => void submit()}>
      <TextField
        form={form}
        prefix="gate"
        name="url"
        label="Gate URL"
        placeholder="https://gate.example.com"
        hint="https://, or http:// for a gate on this machine"
      />
      <TextField
        form={form}
        prefix="gate"
        name="token"
        type="password"
        label="Operator token"
        hint="From npm run gate -- operator add NAME; kept in the OS keychain, never shown again"
      />
      <ConfirmedSubmit
        ask={ask}
        warning="This production profile will take its approvals from this gate."
        action={connecting}
        label="Link gate"
        busyLabel="Linking…"
      />
    </FormFrame>
  )
}
