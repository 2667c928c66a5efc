// Keys → generate a key: the size chosen, a rotation confirmed first when the profile has a key,
// and progress while main makes it (a 4096-bit key takes seconds). Fenced: only whoever may
// change keys submits it (components/RoleFence.tsx).

import { useIsMutating, useMutation } from '@tanstack/react-query';
import { useState } from 'react';

import { paydesk, unwrap } from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/Notice';
import { FencedForm } from '../../components/RoleFence';
import { keyChange, RotationWarning, type KeyChangeProps } from './key-change';

type Bits = 2048 | 3072 | 4096;
const SIZES: readonly Bits[] = [2048, 3072, 4096];

export function GenerateKey({ profile, hasKey, onStart, onAttached }: KeyChangeProps) {
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
