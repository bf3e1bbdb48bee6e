import { useState } from 'react'
import type { ProfileView } from '../../../../shared/profile'
import { useChannelMutation } from '../../data/channel-query'
import { reloadProfiles } from '../../data/profiles'
import { Field } from '../../ui/Field'

/** Replace or remove a profile's client secret; it goes straight to the OS keychain and is never shown. */
export function SecretForm({ profiles }: { profiles: ProfileView[] }) {
  const [profileId, setProfileId] = useState(profiles[0]?.id ?? '')
  const [secret, setSecret] = useState('')
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  const replace = useChannelMutation('profiles.setSecret')
  const clear = useChannelMutation('profiles.clearSecret')
  if (profiles.length === 0) return null
  const act = async (kind: 'set' | 'clear') => {
    const result =
      kind === 'set' ? await replace.run({ id: profileId, clientSecret: secret }) : await clear.run({ id: profileId })
    setSecret('')
    setMessage(
      result.ok
        ? { ok: true, text: kind === 'set' ? 'Secret replaced.' : 'Secret removed.' }
        : { ok: false, text: result.error.message }
    )
    await reloadProfiles()
  }
  return (
    <div className="panel form">
      <h2>Client secret</h2>
      <Field id="s-profile" label="Profile">
        <select id="s-profile" value={profileId} onChange={(e) => setProfileId(e.target.value)}>
          {profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} {p.hasSecret ? '(secret set)' : '(no secret)'}
            </option>
          ))}
        </select>
      </Field>
      <Field id="s-secret" label="New client secret">
        <input
          id="s-secret"
          type="password"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          autoComplete="off"
        />
      </Field>
      <div className="row">
        <button disabled={!secret} onClick={() => void act('set')}>
          Replace secret
        </button>
        <button className="danger" onClick={() => void act('clear')}>
          Remove secret
        </button>
      </div>
      {message && (
        <p className={message.ok ? 'result result-ok' : 'result result-bad'} role="status">
          {message.text}
        </p>
      )}
    </div>
  )
}
