// Profiles: the gateway connections Paydesk works with. Each shows where it connects and as
// whom, its key's fingerprint, and that its control key is in the keychain (never the key).
// Create, edit, remove (with confirmation; the refusals of the rules shown as they come) and
// test the connection with a harmless status request. Whoever may not change profiles
// (components/RoleFence.tsx) still reads every card and tests its connection (a status request
// for a made-up order, which changes nothing); New, Edit and Remove are fenced.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';

import { paydesk, unwrap } from '../../api';
import { EnvironmentBadge } from '../../components/EnvironmentBadge';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedButton } from '../../components/RoleFence';
import { SharedProfileNote, TeamKeyNotice } from '../../components/TeamKeyNotice';
import { useActiveProfile, type ProfileView } from '../../profile-context';
import { keys } from '../../queries';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { shortFingerprint } from '../../components/Fingerprint';
import { ProfileForm } from './ProfileForm';
import '../../components/admin.css';

type Editing = { mode: 'create' } | { mode: 'edit'; id: string } | undefined;

export function ProfilesScreen() {
  const { profiles, loading } = useActiveProfile();
  const [editing, setEditing] = useState<Editing>();
  const [done, setDone] = useState<string>();

  const finish = (message: string) => {
    setEditing(undefined);
    setDone(message);
  };

  return (
    <section className="admin-screen" aria-labelledby="profiles-title">
      <div className="screen-heading">
        <h1 id="profiles-title">Profiles</h1>
        {editing?.mode !== 'create' && (
          <FencedButton
            className="primary"
            onClick={() => {
              setDone(undefined);
              setEditing({ mode: 'create' });
            }}
          >
            New profile
          </FencedButton>
        )}
      </div>
      <p className="screen-intro">
        A profile is one gateway connection: its address, endpoint and login. Its control key and
        RSA private key live in the OS keychain, never on screen or on disk.
      </p>
      {done && <Notice kind="success">{done}</Notice>}
      {editing?.mode === 'create' && (
        <ProfileForm
          onDone={(saved) => finish(`Profile “${saved.name}” created.`)}
          onCancel={() => setEditing(undefined)}
        />
      )}
      {loading && <p role="status">Reading profiles…</p>}
      <div className="profile-list">
        {profiles.map((profile) =>
          editing?.mode === 'edit' && editing.id === profile.id ? (
            <ProfileForm
              key={profile.id}
              profile={profile}
              onDone={(saved) => finish(`Profile “${saved.name}” saved.`)}
              onCancel={() => setEditing(undefined)}
            />
          ) : (
            <ProfileCard
              key={profile.id}
              profile={profile}
              onEdit={() => {
                setDone(undefined);
                setEditing({ mode: 'edit', id: profile.id });
              }}
              onRemoved={() => setDone(`Profile “${profile.name}” removed.`)}
            />
          ),
        )}
      </div>
    </section>
  );
}

function ProfileCard({
  profile,
  onEdit,
  onRemoved,
}: {
  profile: ProfileView;
  onEdit: () => void;
  onRemoved: () => void;
}) {
  const client = useQueryClient();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);

  const test = useMutation({
    mutationFn: () => unwrap(paydesk().profiles.testConnection({ id: profile.id })),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(paydesk().profiles.remove({ id: profile.id })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.profiles });
      onRemoved();
    },
  });

  return (
    <article
      className={`card profile-card profile-${profile.environment}`}
      aria-labelledby={titleId}
    >
      <header className="profile-card-header">
        <h2 id={titleId}>{profile.name}</h2>
        <EnvironmentBadge environment={profile.environment} />
        {profile.embedded && <span className="built-in">Built-in sandbox on this computer</span>}
        <SharedProfileNote profile={profile} />
      </header>
      <dl className="profile-facts">
        <dt>Base URL</dt>
        <dd className="mono">{profile.baseUrl}</dd>
        <dt>{profile.endpointKind === 'group' ? 'Endpoint group id' : 'Endpoint id'}</dt>
        <dd className="mono">{profile.endpointId}</dd>
        <dt>Merchant login</dt>
        <dd className="mono">{profile.login}</dd>
        <dt>Two-step payouts</dt>
        <dd>
          {profile.payoutFourEyes
            ? 'four eyes: paid by someone other than who checked them'
            : 'checked and paid by anyone in finance'}
        </dd>
        <dt>Control key</dt>
        <dd>
          {profile.hasControlKey ? (
            'stored in the keychain'
          ) : (
            <span className="missing">
              {profile.team && !profile.team.canEdit
                ? 'missing on this desk: enter it below'
                : 'missing: choose Edit and enter it'}
            </span>
          )}
        </dd>
        <dt>RSA key</dt>
        <dd>
          {profile.keyFingerprint ? (
            <span className="mono" title={profile.keyFingerprint}>
              {shortFingerprint(profile.keyFingerprint)}
            </span>
          ) : (
            'none yet (only needed for RSA-signed operations)'
          )}
        </dd>
      </dl>
      <TeamKeyNotice profile={profile} />
      {profile.team && !profile.team.canEdit && <DeskControlKey profile={profile} />}
      <div className="button-row">
        <FencedButton onClick={onEdit}>Edit</FencedButton>
        <button
          type="button"
          onClick={() => test.mutate()}
          disabled={test.isPending}
          aria-describedby={test.data || test.error ? `${titleId}-test` : undefined}
        >
          {test.isPending ? 'Testing…' : 'Test connection'}
        </button>
        {profile.embedded ? (
          <span className="field-hint">The built-in Sandbox cannot be removed.</span>
        ) : profile.team && !profile.team.canEdit ? (
          <span className="field-hint">A shared profile is removed by an admin of the team.</span>
        ) : (
          <FencedButton
            className="danger-outline"
            onClick={() => {
              remove.reset();
              setConfirming(true);
            }}
            disabled={remove.isPending}
          >
            Remove
          </FencedButton>
        )}
      </div>
      <div id={`${titleId}-test`} className="card-results">
        {test.isPending && <p role="status">Asking the gateway…</p>}
        {test.data && (
          <div
            className={`notice ${test.data.ok ? 'notice-success' : 'notice-error'}`}
            role={test.data.ok ? 'status' : 'alert'}
          >
            {test.data.ok ? '' : 'Connection failed: '}
            {test.data.message}
          </div>
        )}
        {test.error && <ErrorNotice error={test.error} title="Connection failed:" />}
        {remove.error && <ErrorNotice error={remove.error} title="Not removed:" />}
      </div>
      {confirming && (
        <ConfirmDialog
          title={`Remove the profile “${profile.name}”?`}
          confirmLabel="Remove profile"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            remove.mutate();
          }}
        >
          <p>
            Its control key and RSA private key are deleted from the keychain. This cannot be
            undone: to use this connection again you need the control key from the gateway.
          </p>
        </ConfirmDialog>
      )}
    </article>
  );
}

/**
 * A shared profile's control key on this desk, for whoever may not edit the team's profile: the
 * key stays in this computer's keychain and changes nothing of the team's, so it is not fenced
 * (support needs it too, to check callbacks). Without it nothing can be sent on the profile.
 */
function DeskControlKey({ profile }: { profile: ProfileView }) {
  const client = useQueryClient();
  const id = useId();
  const [key, setKey] = useState('');
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        paydesk().profiles.update({
          id: profile.id,
          profile: {
            name: profile.name,
            environment: profile.environment,
            baseUrl: profile.baseUrl,
            endpointId: profile.endpointId,
            endpointKind: profile.endpointKind,
            login: profile.login,
            controlKey: key,
          },
        }),
      ),
    onSuccess: async () => {
      setKey('');
      await client.invalidateQueries({ queryKey: keys.profiles });
    },
  });
  return (
    <form
      className="desk-control-key"
      onSubmit={(event) => {
        event.preventDefault();
        if (key.trim()) save.mutate();
      }}
    >
      <label htmlFor={id}>Control key for this desk</label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        value={key}
        onChange={(e) => {
          setKey(e.target.value);
          save.reset();
        }}
        aria-describedby={`${id}-hint`}
      />
      <button type="submit" disabled={!key.trim() || save.isPending}>
        Save control key
      </button>
      <span className="field-hint" id={`${id}-hint`}>
        {profile.hasControlKey
          ? 'This desk holds one; a key typed here replaces it. '
          : 'Without it nothing can be sent on this profile. '}
        The key your admin gives you for “{profile.name}”; kept in this computer&apos;s keychain,
        never shared with the team&apos;s database.
      </span>
      {save.isSuccess && <Notice kind="success">Saved in this computer’s keychain.</Notice>}
      {save.error && <ErrorNotice error={save.error} title="Not saved:" />}
    </form>
  );
}
