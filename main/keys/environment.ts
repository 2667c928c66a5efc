// "A key pair belongs to one environment": a key once attached to a production profile must
// never sign for a test profile, or the other way round, so a test setup can never hold the key
// production trusts. The profiles store calls this with every attachment it knows, the retired
// ones included: a key that has ever been production's stays production's.

import { type Fingerprint, normalizeFingerprint } from './fingerprint-text';

/** Mirrors main/store/profiles' Environment; a test checks the two stay equal. */
export type KeyEnvironment = 'production' | 'test' | 'sandbox';

export interface KeyAttachment {
  profileId: string;
  profileName: string;
  environment: KeyEnvironment;
  fingerprint: Fingerprint;
  /** Set when the key was rotated away; it still counts. */
  retiredAt?: string | null;
}

export type KeyEnvironmentDecision =
  { allowed: true } | { allowed: false; reason: string; conflict: KeyAttachment };

// Production first: if a key clashes with several, the production one is what matters most.
const SEVERITY: Record<KeyEnvironment, number> = { production: 0, test: 1, sandbox: 2 };

export function checkKeyEnvironment(
  fingerprint: Fingerprint,
  target: { environment: KeyEnvironment },
  attachments: readonly KeyAttachment[],
): KeyEnvironmentDecision {
  const wanted = normalizeFingerprint(fingerprint);
  const conflict = attachments
    .filter((a) => a.environment !== target.environment)
    .filter((a) => normalizeFingerprint(a.fingerprint) === wanted)
    .sort((a, b) => SEVERITY[a.environment] - SEVERITY[b.environment])[0];
  if (!conflict) return { allowed: true };
  const when = conflict.retiredAt ? 'was used' : 'is used';
  return {
    allowed: false,
    conflict,
    reason: `This key ${when} by the ${conflict.environment} profile "${conflict.profileName}", and a key pair belongs to one environment. Generate a new key for this ${target.environment} profile.`,
  };
}
