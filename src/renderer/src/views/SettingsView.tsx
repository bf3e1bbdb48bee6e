import { useState } from 'react'
import type { ProfileView } from '../../../shared/profile'
import { useChannelMutation } from '../data/channel-query'
import { reloadProfiles, switchProfile, useProfileList } from '../data/profiles'
import { DataTable, type TableColumn } from '../ui/DataTable'
import { FailedAction } from '../ui/form-submit'
import { ConnectionPanel } from './ConnectionPanel'
import { AppearancePanel } from './settings/AppearancePanel'
import { AddProfileForm, EditProfileForm } from './settings/ProfileForms'
import { SecretForm } from './settings/SecretForm'
import { UpdatesPanel } from './settings/UpdatesPanel'

export function SettingsView() {
  const { list } = useProfileList()
  const removing = useChannelMutation('profiles.remove')
  const [confirmRemove, setConfirmRemove] = useState<string | null>(null)
  /** Main named transfers of unknown outcome in this profile's journal: removing it needs a second, explicit yes. */
  const [removeDespiteUnknown, setRemoveDespiteUnknown] = useState<string | null>(null)
  const [editing, setEditing] = useState<string | null>(null)

  const remove = async (profile: ProfileView, confirmUnknownTransfers = false) => {
    const result = await removing.run({
      id: profile.id,
      ...(confirmUnknownTransfers && { confirmUnknownTransfers: true })
    })
    setConfirmRemove(null)
    setRemoveDespiteUnknown(null)
    if (!result.ok) {
      if (result.error.code === 'CONFIRMATION_REQUIRED') setRemoveDespiteUnknown(profile.id)
    } else await reloadProfiles()
  }

  const profileColumns: TableColumn<ProfileView>[] = [
    { key: 'name', header: 'Name', render: (p) => p.name },
    {
      key: 'environment',
      header: 'Environment',
      render: (p) => <span className={`env-chip env-chip-${p.environment}`}>{p.environment}</span>
    },
    { key: 'url', header: 'Base URL', className: 'mono', render: (p) => p.baseUrl },
    { key: 'secret', header: 'Secret', render: (p) => (p.hasSecret ? 'In keychain' : 'Not set') },
    {
      key: 'actions',
      header: 'Actions',
      hiddenHeader: true,
      className: 'actions',
      render: (p) => (
        <>
          {p.id !== list?.activeProfileId && <button onClick={() => void switchProfile(p.id)}>Switch to</button>}
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
        </>
      )
    }
  ]

  return (
    <section className="page" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <h2>Profiles</h2>
      <FailedAction error={removing.error} />
      <DataTable
        label="Profiles"
        columns={profileColumns}
        rowKey={(p) => p.id}
        rows={list?.profiles ?? []}
        rowProps={(p) => ({ 'aria-current': p.id === list?.activeProfileId ? 'true' : undefined })}
      />
      {editing && list?.profiles.find((p) => p.id === editing) && (
        <EditProfileForm
          key={editing}
          profile={list.profiles.find((p) => p.id === editing)!}
          onDone={() => {
            setEditing(null)
            void reloadProfiles()
          }}
        />
      )}
      <AddProfileForm />
      {list && <SecretForm profiles={list.profiles.filter((p) => p.environment !== 'local')} />}
      {list && list.profiles.find((p) => p.id === list.activeProfileId) && (
        <ConnectionPanel profile={list.profiles.find((p) => p.id === list.activeProfileId)!} />
      )}
      <AppearancePanel />
      <UpdatesPanel />
    </section>
  )
}
