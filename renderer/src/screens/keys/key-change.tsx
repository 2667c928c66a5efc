// What generating and importing a key share: the key's shape as the bridge returns it, the
// mutation key that keeps one change of a profile's key at a time, and the warning a rotation
// shows. Its own file so GenerateKey.tsx and ImportKey.tsx need not import each other.

import type { z } from 'zod';

import type { contract } from '../../../../common/contract';
import type { ProfileView } from '../../profile-context';

export type KeyView = NonNullable<z.output<(typeof contract)['keys']['current']['result']>>;
/** Generate and import share it, so neither starts while the other is changing the key. */
export const keyChange = (profileId: string) => ['key-change', profileId] as const;

/** What KeysScreen gives each way of putting a key on a profile (generate, import). */
export interface KeyChangeProps {
  profile: ProfileView;
  hasKey: boolean;
  onStart: () => void;
  onAttached: (key: KeyView) => Promise<void>;
}

export function RotationWarning({ profile }: { profile: ProfileView }) {
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
