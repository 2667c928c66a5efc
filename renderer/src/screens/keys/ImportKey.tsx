// Keys → import a key: a pasted private key (PEM, with its passphrase when encrypted) checked
// by main first, then a rotation confirmed with the new key's fingerprint, then stored in the
// keychain. The PEM and passphrase are cleared once attached. Fenced like generating.

import { useIsMutating, useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

import { paydesk, unwrap } from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { fingerprintGroups } from '../../components/Fingerprint';
import { describedBy, fieldErrorsOf, type FieldErrors } from '../../components/form-errors';
import { ErrorNotice } from '../../components/Notice';
import { FencedForm } from '../../components/RoleFence';
import { useSchemasSoon, withSchemas } from '../../schemas';
import { keyChange, RotationWarning, type KeyChangeProps } from './key-change';

export function ImportKey({ profile, hasKey, onStart, onAttached }: KeyChangeProps) {
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
