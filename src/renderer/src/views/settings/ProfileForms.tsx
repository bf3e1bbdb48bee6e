import { useRef, useState } from 'react'
import { DEFAULT_BASE_URL, ProfileCreateInput, ProfileUpdateInput, type ProfileView } from '../../../../shared/profile'
import { reloadProfiles } from '../../data/profiles'
import { Field } from '../../ui/Field'
import { useFlatForm, type FlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame, useFormSubmit } from '../../ui/form-submit'
import { DraftTestRow, SaveAnyway, useDraftTest, type DraftTest } from './DraftConnectionTest'

/**
 * Profile forms send every box as typed, so an empty name is refused with the schema's own sentence ("Give the profile
 * a name"); only an empty secret means "none given".
 */
function profileInput(values: Record<string, string>): Record<string, unknown> {
  const { clientSecret, ...rest } = values
  return { ...rest, ...(clientSecret && { clientSecret }) }
}

/**
 * Saving asks first when the values as they are failed their connection test ("Save anyway"); untested values, or
 * values that passed, save at once.
 */
function useSaveAfterTest(test: DraftTest, submit: () => void) {
  const [asking, setAsking] = useState(false)
  const save = () => {
    if (test.failed) return setAsking(true)
    setAsking(false)
    submit()
  }
  const prompt =
    asking && test.failed && test.outcome ? (
      <SaveAnyway
        message={test.outcome.message}
        onSave={() => {
          setAsking(false)
          submit()
        }}
        onKeepEditing={() => setAsking(false)}
      />
    ) : null
  return { save, prompt }
}

/** The boxes a connection test must show their own errors in when they cannot be tested as they are. */
const revealEndpoint = (form: FlatForm<typeof ProfileCreateInput | typeof ProfileUpdateInput>) => () => {
  form.blur('baseUrl')
  form.blur('tokenId')
}

/** Rename a profile or repoint it; the secret is replaced separately and never shown. */
export function EditProfileForm({ profile, onDone }: { profile: ProfileView; onDone(): void }) {
  const form = useFlatForm(
    ProfileUpdateInput,
    {
      id: profile.id,
      name: profile.name,
      environment: profile.environment,
      baseUrl: profile.baseUrl,
      tokenId: profile.tokenId
    },
    { toInput: profileInput }
  )
  // Main asks before a profile changes environment; the operator's yes goes with the next submit.
  const confirming = useRef(false)
  const { submit, error, formRef } = useFormSubmit(form, 'profiles.update', onDone, {
    toRequest: (input) => (confirming.current ? { ...input, confirmEnvironmentChange: true } : input)
  })
  const endpointChanged = form.values['baseUrl'] !== profile.baseUrl || form.values['tokenId'] !== profile.tokenId
  const test = useDraftTest(form.values, profile.id, revealEndpoint(form))
  const { save, prompt } = useSaveAfterTest(test, submit)
  return (
    <FormFrame formRef={formRef} className="panel form" label={`Edit ${profile.name}`} onSubmit={save}>
      <h2>Edit “{profile.name}”</h2>
      <ProfileFields idPrefix="e" form={form} />
      <DraftTestRow test={test} />
      {endpointChanged && profile.hasSecret && (
        <p className="result result-warn" role="note">
          Saving removes the stored client secret: it belongs to the old base URL and token id. Enter it again below.
        </p>
      )}
      <FailedAction error={error} withCode={false} />
      {prompt}
      <div className="row">
        {error?.code === 'CONFIRMATION_REQUIRED' ? (
          <button
            type="button"
            className="danger"
            onClick={() => {
              confirming.current = true
              submit()
            }}
          >
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
    </FormFrame>
  )
}

export function AddProfileForm() {
  const form = useFlatForm(
    ProfileCreateInput,
    {
      name: '',
      environment: 'sandbox',
      baseUrl: DEFAULT_BASE_URL,
      tokenId: '',
      clientSecret: ''
    },
    { toInput: profileInput }
  )
  const [added, setAdded] = useState<string | null>(null)
  const { submit, error, formRef } = useFormSubmit(form, 'profiles.create', (profile) => {
    setAdded(profile.name)
    form.reset()
    void reloadProfiles()
  })
  const test = useDraftTest(form.values, undefined, revealEndpoint(form))
  const { save, prompt } = useSaveAfterTest(test, submit)

  return (
    <FormFrame formRef={formRef} className="panel form" labelledBy="add-profile-title" onSubmit={save}>
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
      <DraftTestRow test={test} />
      <FailedAction error={error} withCode={false} />
      {prompt}
      {added && (
        <p className="result result-ok" role="status">
          Added “{added}”.
        </p>
      )}
      <button type="submit">Add profile</button>
    </FormFrame>
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
    </>
  )
}
