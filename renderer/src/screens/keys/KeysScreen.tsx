// Keys: the RSA key pair a profile signs OAuth RSA-SHA256 requests with. The private key stays
// in the keychain (main generates and imports it); this screen shows the public half, its
// fingerprint laid out for reading on the phone, exports public_key.pem, and keeps the history
// of rotations. A new key while one exists is a rotation, confirmed first. Whoever may not
// change keys (components/RoleFence.tsx) still chooses the profile, reads, copies and saves the
// public key; generating and importing are fenced (GenerateKey.tsx, ImportKey.tsx).

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { paydesk, unwrap } from '../../api';
import { EnvironmentBadge } from '../../components/EnvironmentBadge';
import { ErrorNotice, Notice } from '../../components/Notice';
import { TeamKeyNotice } from '../../components/TeamKeyNotice';
import { useActiveProfile, type ProfileView } from '../../profile-context';
import { keys } from '../../queries';
import { Fingerprint, fingerprintGroups } from '../../components/Fingerprint';
import { localTimeWithOffset } from '../../../../common/time';
import '../../components/admin.css';
import { GenerateKey } from './GenerateKey';
import { ImportKey } from './ImportKey';
import type { KeyView } from './key-change';

export function KeysScreen() {
  const { profiles, active } = useActiveProfile();
  // Whose key to manage is this screen's own choice: it starts at the active profile and
  // never switches the app's active profile (the header, the orders, the journal stay as they are).
  const [chosenId, setChosenId] = useState<string>();
  const managed = profiles.find((p) => p.id === chosenId) ?? active;
  return (
    <section className="admin-screen" aria-labelledby="keys-title">
      <div className="screen-heading">
        <h1 id="keys-title">Keys</h1>
        {managed && (
          <div className="field inline-field">
            <label htmlFor="keys-profile">Key for profile</label>
            <select
              id="keys-profile"
              value={managed.id}
              aria-describedby="keys-profile-hint"
              onChange={(e) => setChosenId(e.target.value)}
            >
              {profiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.environment})
                </option>
              ))}
            </select>
            <span id="keys-profile-hint" className="field-hint">
              {active && managed.id !== active.id
                ? `Only this screen shows ${managed.name}; the active profile stays ${active.name}.`
                : 'The active profile.'}
            </span>
          </div>
        )}
      </div>
      {managed ? <ProfileKeys key={managed.id} profile={managed} /> : <p>No profile yet.</p>}
    </section>
  );
}

type Outcome = { kind: 'success' | 'info'; text: string } | undefined;

function ProfileKeys({ profile }: { profile: ProfileView }) {
  const client = useQueryClient();
  const profileId = profile.id;
  const current = useQuery({
    queryKey: keys.key(profileId),
    queryFn: () => unwrap(paydesk().keys.current({ profileId })),
  });
  const [outcome, setOutcome] = useState<Outcome>();

  const attached = async (key: KeyView, how: string) => {
    client.setQueryData(keys.key(profileId), key);
    await client.invalidateQueries({ queryKey: keys.profiles });
    setOutcome({
      kind: 'success',
      text: `${how}. Send public_key.pem to the gateway operator's support and confirm the fingerprint with them by phone.`,
    });
  };

  // A notice belongs to the action that made it: the next action starts without it.
  const clearOutcome = () => setOutcome(undefined);
  const save = useMutation({
    mutationFn: () => unwrap(paydesk().keys.savePublicKey({ profileId })),
    onMutate: clearOutcome,
    onSuccess: (r) =>
      setOutcome(
        r.saved
          ? { kind: 'success', text: `public_key.pem saved to ${r.path ?? 'the chosen folder'}.` }
          : { kind: 'info', text: 'Not saved: the save dialog was closed.' },
      ),
  });
  const copy = useMutation({
    mutationFn: () => unwrap(paydesk().keys.copyPublicKey({ profileId })),
    onMutate: clearOutcome,
    onSuccess: () =>
      setOutcome({ kind: 'success', text: 'The public key (PEM) is on the clipboard.' }),
  });

  const key = current.data;
  return (
    <>
      <p className="screen-intro">
        For <strong>{profile.name}</strong> <EnvironmentBadge environment={profile.environment} />.
        The private key never leaves the OS keychain; only the public key below is shared.
      </p>
      <TeamKeyNotice profile={profile} />
      {outcome && <Notice kind={outcome.kind}>{outcome.text}</Notice>}
      {current.error && <ErrorNotice error={current.error} title="The key could not be read:" />}

      <section className="card" aria-labelledby="current-key-title">
        <h2 id="current-key-title">Current key</h2>
        {current.isLoading && <p role="status">Reading the key…</p>}
        {current.isSuccess && !key && (
          <p>This profile has no RSA key yet. Generate one below, or import the one you have.</p>
        )}
        {key && (
          <div className="key-view">
            <div className="key-facts">
              <Fingerprint value={key.fingerprint} />
              <p className="field-hint">SHA-256 of public_key.pem · RSA {key.bits} bits</p>
            </div>
            <p className="key-howto">
              Hand <strong>public_key.pem</strong> to the gateway operator's support, then read them
              this fingerprint by phone so both sides know it is the same key.
            </p>
            <div className="button-row">
              <button
                type="button"
                className="primary"
                onClick={() => save.mutate()}
                disabled={save.isPending}
              >
                Save public_key.pem…
              </button>
              <button type="button" onClick={() => copy.mutate()} disabled={copy.isPending}>
                Copy public key
              </button>
            </div>
            {save.error && <ErrorNotice error={save.error} title="Not saved:" />}
            {copy.error && <ErrorNotice error={copy.error} title="Not copied:" />}
            <div className="field">
              <label htmlFor="public-key-pem">Public key (PEM)</label>
              <textarea
                id="public-key-pem"
                className="pem"
                readOnly
                rows={Math.min(15, key.publicKeySpkiPem.trim().split('\n').length + 1)}
                value={key.publicKeySpkiPem}
                spellCheck={false}
              />
            </div>
          </div>
        )}
      </section>

      <div className="key-actions">
        <GenerateKey
          profile={profile}
          hasKey={Boolean(key)}
          onStart={clearOutcome}
          onAttached={(k) => attached(k, `New ${k.bits}-bit key generated and attached`)}
        />
        <ImportKey
          profile={profile}
          hasKey={Boolean(key)}
          onStart={clearOutcome}
          onAttached={(k) => attached(k, 'Key imported and attached')}
        />
      </div>

      {key && key.history.length > 0 && (
        <section className="card" aria-labelledby="history-title">
          <h2 id="history-title">Rotation history</h2>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Fingerprint</th>
                <th scope="col">Environment</th>
                <th scope="col">Attached</th>
                <th scope="col">Retired</th>
              </tr>
            </thead>
            <tbody>
              {key.history.map((h) => (
                <tr key={`${h.fingerprint}-${h.attachedAt}`}>
                  <td className="mono small history-fingerprint">
                    {fingerprintGroups(h.fingerprint).join(' ')}
                  </td>
                  <td>{h.environment}</td>
                  <td className="nowrap">{localTimeWithOffset(h.attachedAt)}</td>
                  <td className="nowrap">
                    {h.retiredAt ? (
                      localTimeWithOffset(h.retiredAt)
                    ) : (
                      <span className="status-pill status-approved">current</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
