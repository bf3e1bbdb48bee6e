import { useState } from 'react'
import {
  DEFAULT_BASE_URL,
  DEFAULT_IDEMPOTENCY_WINDOW_HOURS,
  ProfileCreateInput,
  ProfileUpdateInput,
  type ProfileView
} from '../../../shared/profile'
import type { IpcError } from '../../../shared/ipc/define'
import { paydesk } from '../bridge/paydesk'
import { useProfiles } from '../stores/profiles'
import { Field } from '../ui/Field'
import { useFlatForm, type FlatForm } from '../ui/flat-form'
import { ConnectionPanel } from './ConnectionPanel'
import { UpdatesPanel } from './settings/UpdatesPanel'

export function SettingsView() {
  const list = useProfiles((s) => s.list)
  const switchTo = useProfiles((s) => s.switchTo)
  const load = useProfiles((s) => s.load)
  const [error, setError] = useState<IpcError | null>(null)
  const [confirmRemove, setConfirmRemove] = useState<string | null>(null)
  /** Main named transfers of unknown outcome in this profile's journal: removing it needs a second, explicit yes. */
  const [removeDespiteUnknown, setRemoveDespiteUnknown] = useState<string | null>(null)
  const [editing, setEditing] = useState<string | null>(null)

  const remove = async (profile: ProfileView, confirmUnknownTransfers = false) => {
    const result = await paydesk.invoke('profiles.remove', {
      id: profile.id,
      ...(confirmUnknownTransfers && { confirmUnknownTransfers: true })
    })
    setConfirmRemove(null)
    setRemoveDespiteUnknown(null)
    if (!result.ok) {
      setError(result.error)
      if (result.error.code === 'CONFIRMATION_REQUIRED') setRemoveDespiteUnknown(profile.id)
    } else {
      setError(null)
      await load()
    }
  }

  return (
    <section className="page" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <h2>Profiles</h2>
      {error && (
        <p className="result result-bad" role="alert">
          {error.message} <code className="code">{error.code}</code>
        </p>
      )}
      <table className="table" aria-label="Profiles">
        <thead>
          <tr>
            <th>Name</th>
            <th>Environment</th>
            <th>Base URL</th>
            <th>Secret</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {list?.profiles.map((p) => (
            <tr key={p.id} aria-current={p.id === list.activeProfileId ? 'true' : undefined}>
              <td>{p.name}</td>
              <td>
                <span className={`env-chip env-chip-${p.environment}`}>{p.environment}</span>
              </td>
              <td className="mono">{p.baseUrl}</td>
              <td>{p.hasSecret ? 'In keychain' : 'Not set'}</td>
              <td className="actions">
                {p.id !== list.activeProfileId && <button onClick={() => void switchTo(p.id)}>Switch to</button>}
                {p.environment !== 'local' && <button onClick={() => setEditing(p.id)}>Edit…</button>}
                {removeDespiteUnknown === p.id && (
                  <button className="danger" onClick={() => void remove(p, true)}>
                    Remove anyway, with its unknown transfers
                  </button>
                )}
                {p.environment !== 'local' &&
                  removeDespiteUnknown !== p.id &&
                  (confirmRemove === p.id ? (
                    <>
                      <button className="danger" onClick={() => void remove(p)}>
                        Remove “{p.name}” and its secret
                      </button>
                      <button onClick={() => setConfirmRemove(null)}>Keep</button>
                    </>
                  ) : (
                    <button onClick={() => setConfirmRemove(p.id)}>Remove…</button>
                  ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing && list?.profiles.find((p) => p.id === editing) && (
        <EditProfileForm
          key={editing}
          profile={list.profiles.find((p) => p.id === editing)!}
          onDone={() => {
            setEditing(null)
            void load()
          }}
        />
      )}
      <AddProfileForm />
      {list && <SecretForm profiles={list.profiles.filter((p) => p.environment !== 'local')} />}
      {list && list.profiles.find((p) => p.id === list.activeProfileId) && (
        <ConnectionPanel profile={list.profiles.find((p) => p.id === list.activeProfileId)!} />
      )}
      <UpdatesPanel />
    </section>
  )
}

/**
 * Profile forms send every box as typed, so an empty name is refused with the schema's own sentence ("Give the profile
 * a name"); only an empty secret means "none given".
 */
function profileInput(values: Record<string, string>): Record<string, unknown> {
  const { clientSecret, idempotencyWindowHours: hours, ...rest } = values
  return {
    ...rest,
    ...(clientSecret && { clientSecret }),
    // A whole number of hours, or the schema says why not ("Whole hours only").
    ...(hours?.trim() && { idempotencyWindowHours: /^\d+$/.test(hours.trim()) ? Number(hours.trim()) : Number.NaN })
  }
}

/** Rename a profile or repoint it; the secret is replaced separately and never shown. */
function EditProfileForm({ profile, onDone }: { profile: ProfileView; onDone(): void }) {
  const form = useFlatForm(
    ProfileUpdateInput,
    {
      id: profile.id,
      name: profile.name,
      environment: profile.environment,
      baseUrl: profile.baseUrl,
      tokenId: profile.tokenId,
      idempotencyWindowHours: String(profile.idempotencyWindowHours ?? DEFAULT_IDEMPOTENCY_WINDOW_HOURS)
    },
    profileInput
  )
  const [error, setError] = useState<IpcError | null>(null)
  const submit = async (confirmEnvironmentChange = false) => {
    const input = form.submit()
    if (!input) return
    const result = await paydesk.invoke(
      'profiles.update',
      confirmEnvironmentChange ? { ...input, confirmEnvironmentChange: true } : input
    )
    if (!result.ok) {
      setError(result.error)
      if (result.error.fieldErrors) form.setServerErrors(result.error.fieldErrors)
      return
    }
    onDone()
  }
  const endpointChanged = form.values['baseUrl'] !== profile.baseUrl || form.values['tokenId'] !== profile.tokenId
  return (
    <form
      className="panel form"
      aria-label={`Edit ${profile.name}`}
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <h2>Edit “{profile.name}”</h2>
      <ProfileFields idPrefix="e" form={form} />
      {endpointChanged && profile.hasSecret && (
        <p className="result result-warn" role="note">
          Saving removes the stored client secret: it belongs to the old base URL and token id. Enter it again below.
        </p>
      )}
      {error && (
        <p className="result result-bad" role="alert">
          {error.message}
        </p>
      )}
      <div className="row">
        {error?.code === 'CONFIRMATION_REQUIRED' ? (
          <button type="button" className="danger" onClick={() => void submit(true)}>
            Change to {form.values['environment']}
          </button>
        ) : (
          <button type="submit" className="primary">
            Save changes
          </button>
        )}
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function AddProfileForm() {
  const load = useProfiles((s) => s.load)
  const form = useFlatForm(
    ProfileCreateInput,
    {
      name: '',
      environment: 'sandbox',
      baseUrl: DEFAULT_BASE_URL,
      tokenId: '',
      clientSecret: '',
      idempotencyWindowHours: String(DEFAULT_IDEMPOTENCY_WINDOW_HOURS)
    },
    profileInput
  )
  const [error, setError] = useState<IpcError | null>(null)
  const [added, setAdded] = useState<string | null>(null)

  const submit = async () => {
    const input = form.submit()
    if (!input) return
    const result = await paydesk.invoke('profiles.create', input)
    if (!result.ok) {
      setError(result.error)
      if (result.error.fieldErrors) form.setServerErrors(result.error.fieldErrors)
      return
    }
    setError(null)
    setAdded(result.value.name)
    form.reset()
    await load()
  }

  return (
    <form
      className="panel form"
      aria-labelledby="add-profile-title"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <h2 id="add-profile-title">Add a profile</h2>
      <ProfileFields idPrefix="p" form={form} />
      <Field
        id="p-secret"
        label="API client secret"
        error={form.error('clientSecret')}
        hint="Kept in the OS keychain. Paydesk never shows it again."
      >
        <input
          id="p-secret"
          type="password"
          value={form.values['clientSecret']}
          onChange={(e) => form.set('clientSecret', e.target.value)}
          autoComplete="off"
        />
      </Field>
      {error && (
        <p className="result result-bad" role="alert">
          {error.message}
        </p>
      )}
      {added && (
        <p className="result result-ok" role="status">
          Added “{added}”.
        </p>
      )}
      <button type="submit">Add profile</button>
    </form>
  )
}

function SecretForm({ profiles }: { profiles: ProfileView[] }) {
  const [profileId, setProfileId] = useState(profiles[0]?.id ?? '')
  const [secret, setSecret] = useState('')
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  if (profiles.length === 0) return null
  const act = async (kind: 'set' | 'clear') => {
    const result =
      kind === 'set'
        ? await paydesk.invoke('profiles.setSecret', { id: profileId, clientSecret: secret })
        : await paydesk.invoke('profiles.clearSecret', { id: profileId })
    setSecret('')
    setMessage(
      result.ok
        ? { ok: true, text: kind === 'set' ? 'Secret replaced.' : 'Secret removed.' }
        : { ok: false, text: result.error.message }
    )
    await useProfiles.getState().load()
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

/** The fields a profile has in both the add and the edit form (the secret is only asked for when adding). */
function ProfileFields({
  idPrefix,
  form
}: {
  idPrefix: string
  form: FlatForm<typeof ProfileCreateInput | typeof ProfileUpdateInput>
}) {
  const text = (name: string, label: string, extra: { autoComplete?: string } = {}) => (
    <Field id={`${idPrefix}-${name}`} label={label} error={form.error(name)}>
      <input
        id={`${idPrefix}-${name}`}
        value={form.values[name]}
        onChange={(e) => form.set(name, e.target.value)}
        onBlur={() => form.blur(name)}
        {...extra}
      />
    </Field>
  )
  return (
    <>
      {text('name', 'Name')}
      <Field
        id={`${idPrefix}-environment`}
        label="Environment"
        error={form.error('environment')}
        hint="Production profiles move real money and ask twice before they do."
      >
        <select
          id={`${idPrefix}-environment`}
          value={form.values['environment']}
          onChange={(e) => form.set('environment', e.target.value)}
        >
          <option value="sandbox">Sandbox</option>
          <option value="production">Production</option>
        </select>
      </Field>
      {text('baseUrl', 'Base URL')}
      {text('tokenId', 'API token id', { autoComplete: 'off' })}
      <Field
        id={`${idPrefix}-idempotencyWindowHours`}
        label="Idempotency window (hours)"
        error={form.error('idempotencyWindowHours')}
        hint="How long the service remembers a payment's key. Past it, Paydesk asks you to check the service before a retry."
      >
        <input
          id={`${idPrefix}-idempotencyWindowHours`}
          inputMode="numeric"
          value={form.values['idempotencyWindowHours']}
          onChange={(e) => form.set('idempotencyWindowHours', e.target.value)}
          onBlur={() => form.blur('idempotencyWindowHours')}
        />
      </Field>
    </>
  )
}
