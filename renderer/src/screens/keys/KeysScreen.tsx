// Keys: the RSA key pair a profile signs OAuth RSA-SHA256 requests with. The private key stays
// in the keychain (main generates and imports it); this screen shows the public half, its
// fingerprint laid out for reading on the phone, exports public_key.pem, and keeps the history
// of rotations. A new key while one exists is a rotation, confirmed first. Whoever may not
// change keys (components/RoleFence.tsx) still chooses the profile, reads, copies and saves the
// public key; generating and importing are fenced.

import { useIsMutating, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';

import type { contract } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { EnvironmentBadge } from '../../components/EnvironmentBadge';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedForm } from '../../components/RoleFence';
import { TeamKeyNotice } from '../../components/TeamKeyNotice';
import { useActiveProfile, type ProfileView } from '../../profile-context';
import { keys } from '../../queries';
import { useSchemasSoon, withSchemas } from '../../schemas';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Fingerprint, fingerprintGroups } from '../../components/Fingerprint';
import { describedBy, fieldErrorsOf, type FieldErrors } from '../../components/form-errors';
import { localTimeWithOffset } from '../../../../common/time';
import '../../components/admin.css';

type KeyView = NonNullable<z.output<(typeof contract)['keys']['current']['result']>>;
type Bits = 2048 | 3072 | 4096;
/** Generate and import share it, so neither starts while the other is changing the key. */
const keyChange = (profileId: string) => ['key-change', profileId] as const;
const SIZES: readonly Bits[] = [2048, 3072, 4096];

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

function RotationWarning({ profile }: { profile: ProfileView }) {
  return (
    <>
      <p>
        The current key of <strong>{profile.name}</strong> is retired. The gateway must receive the
        new public key before RSA-signed operations work again.
      </p>
      <p>
        Send the new public_key.pem to the operator's support and confirm its fingerprint by phone.
      </p>
    </>
  );
}

function GenerateKey({
  profile,
  hasKey,
  onStart,
  onAttached,
}: {
  profile: ProfileView;
  hasKey: boolean;
  onStart: () => void;
  onAttached: (key: KeyView) => Promise<void>;
}) {
  const [bits, setBits] = useState<Bits>(4096);
  const [confirming, setConfirming] = useState(false);
  const changing = useIsMutating({ mutationKey: keyChange(profile.id) }) > 0;
  const generate = useMutation({
    mutationKey: keyChange(profile.id),
    mutationFn: (size: Bits) =>
      unwrap(paydesk().keys.generate({ profileId: profile.id, bits: size })),
    onMutate: onStart,
    onSuccess: onAttached,
  });

  return (
    <section className="card" aria-labelledby="generate-title" aria-busy={generate.isPending}>
      <h2 id="generate-title">{hasKey ? 'Rotate: generate a new key' : 'Generate a key'}</h2>
      <FencedForm
        onSubmit={(e) => {
          e.preventDefault();
          onStart();
          if (hasKey) setConfirming(true);
          else generate.mutate(bits);
        }}
      >
        <div className="field">
          <label htmlFor="key-size">Key size</label>
          <select
            id="key-size"
            value={bits}
            aria-describedby="key-size-hint"
            onChange={(e) => setBits(Number(e.target.value) as Bits)}
            disabled={generate.isPending}
          >
            {SIZES.map((s) => (
              <option key={s} value={s}>
                {s} bits{s === 4096 ? ' (recommended)' : ''}
              </option>
            ))}
          </select>
          <span className="field-hint" id="key-size-hint">
            A 4096-bit key takes several seconds to make.
          </span>
        </div>
        <button type="submit" className="primary" disabled={changing}>
          {hasKey ? 'Generate new key…' : 'Generate key'}
        </button>
      </FencedForm>
      {generate.isPending && (
        <div className="progress-row" role="status">
          <progress aria-label={`Generating a ${bits}-bit key`} />
          <span>Generating a {bits}-bit key… this can take several seconds.</span>
        </div>
      )}
      {generate.error && <ErrorNotice error={generate.error} title="No key generated:" />}
      {confirming && (
        <ConfirmDialog
          title={`Rotate the key of “${profile.name}”?`}
          confirmLabel={`Generate new ${bits}-bit key`}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            generate.mutate(bits);
          }}
        >
          <RotationWarning profile={profile} />
        </ConfirmDialog>
      )}
    </section>
  );
}

function ImportKey({
  profile,
  hasKey,
  onStart,
  onAttached,
}: {
  profile: ProfileView;
  hasKey: boolean;
  onStart: () => void;
  onAttached: (key: KeyView) => Promise<void>;
}) {
  const [pem, setPem] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  /** The key the PEM holds, read and checked by main before anything is asked or stored. */
  const [confirming, setConfirming] = useState<{ fingerprint: string; bits: number }>();
  const changing = useIsMutating({ mutationKey: keyChange(profile.id) }) > 0;
  useSchemasSoon();
  const request = () => ({
    profileId: profile.id,
    pem,
    ...(passphrase ? { passphrase } : {}),
  });
  // Check first, confirm second: garbage, an EC key or a short key is refused before the
  // clerk is asked whether to replace anything.
  const check = useMutation({
    mutationFn: () => unwrap(paydesk().keys.checkImport(request())),
    onSuccess: (found) => {
      if (hasKey) setConfirming(found);
      else doImport.mutate();
    },
  });
  const doImport = useMutation({
    mutationKey: keyChange(profile.id),
    mutationFn: () => unwrap(paydesk().keys.import(request())),
    onSuccess: async (key) => {
      setPem('');
      setPassphrase('');
      await onAttached(key);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    onStart();
    doImport.reset();
    withSchemas(({ contract }) => {
      const checked = contract.keys.import.request.safeParse({
        profileId: profile.id,
        pem: pem.trim(),
        ...(passphrase ? { passphrase } : {}),
      });
      const found = checked.success ? {} : fieldErrorsOf(checked.error);
      setErrors(found);
      if (!checked.success) {
        doImport.reset();
        document.getElementById('import-pem')?.focus();
        return;
      }
      check.mutate();
    });
  }

  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import a key</h2>
      <FencedForm onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="import-pem">Private key (PEM)</label>
          <textarea
            {...describedBy('import-pem', errors.pem, true)}
            className="pem"
            rows={6}
            value={pem}
            spellCheck={false}
            autoComplete="off"
            placeholder="-----BEGIN PRIVATE KEY-----"
            onChange={(e) => {
              setPem(e.target.value);
              setErrors({});
            }}
          />
          <span className="field-hint" id="import-pem-hint">
            PKCS#1 (BEGIN RSA PRIVATE KEY) or PKCS#8 (BEGIN PRIVATE KEY or BEGIN ENCRYPTED PRIVATE
            KEY). It goes straight to the keychain.
          </span>
          {errors.pem && (
            <span className="field-error" id="import-pem-error">
              {errors.pem}
            </span>
          )}
        </div>
        <div className="field">
          <label htmlFor="import-passphrase">Passphrase (only for an encrypted key)</label>
          <input
            id="import-passphrase"
            type="password"
            value={passphrase}
            autoComplete="off"
            onChange={(e) => setPassphrase(e.target.value)}
          />
        </div>
        <button type="submit" className="primary" disabled={changing || check.isPending}>
          {check.isPending
            ? 'Reading the key…'
            : doImport.isPending
              ? 'Importing…'
              : hasKey
                ? 'Import and rotate…'
                : 'Import key'}
        </button>
      </FencedForm>
      {check.error && <ErrorNotice error={check.error} title="Not imported:" />}
      {doImport.error && <ErrorNotice error={doImport.error} title="Not imported:" />}
      {confirming && (
        <ConfirmDialog
          title={`Replace the key of “${profile.name}”?`}
          confirmLabel="Import new key"
          onCancel={() => setConfirming(undefined)}
          onConfirm={() => {
            setConfirming(undefined);
            doImport.mutate();
          }}
        >
          <p>
            The key you pasted is RSA {confirming.bits} bits, fingerprint{' '}
            <span className="mono">{fingerprintGroups(confirming.fingerprint).join(' ')}</span>.
          </p>
          <RotationWarning profile={profile} />
        </ConfirmDialog>
      )}
    </section>
  );
}
