// The SecretStore port: the only place the control key and RSA private keys live. The keytar
// adapter (keytar.ts) is the real one; memory.ts is a real in-memory implementation for tests.

import type { SecretStoreUnavailableError } from './errors';
import { SecretStoreError } from './errors';

export const SECRET_KINDS = ['control-key', 'rsa-private-key', 'team-password'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

export type SecretStoreStatus =
  { usable: true } | { usable: false; error: SecretStoreUnavailableError };

export interface SecretStore {
  /**
   * The secret, or undefined when none is stored. Never undefined because the keychain could not
   * be read: that throws SecretStoreUnavailableError, so a locked keychain is not mistaken for a
   * missing key (and a new key is not generated over the old one).
   */
  get(profileId: string, kind: SecretKind): Promise<string | undefined>;
  set(profileId: string, kind: SecretKind, value: string): Promise<void>;
  /** True when something was deleted. */
  delete(profileId: string, kind: SecretKind): Promise<boolean>;
  /**
   * Whether secrets can be written and read right now. Never throws: the app opens anyway and
   * shows `error.message` (what to install or unlock).
   */
  probe(): Promise<SecretStoreStatus>;
  /**
   * Whether a profile's secret (a control key or a private key) is stored: evidence, at start,
   * that Paydesk had a journal on this computer, whose profiles they belong to. The team's
   * password is not: a desk can be set up for a team before its first start. False when it
   * cannot tell (a locked keychain). Never throws.
   */
  holdsProfileSecrets?(): Promise<boolean>;
}

/** The kinds of secret that belong to a profile (and so to a journal's profiles table). */
export const PROFILE_SECRET_KINDS: readonly SecretKind[] = ['control-key', 'rsa-private-key'];

/** Whether a keychain account (`${profileId}:${kind}`, parts `:n`) holds a profile's secret. */
export function isProfileAccount(account: string): boolean {
  const kind = account.split(':')[1];
  return PROFILE_SECRET_KINDS.some((k) => k === kind);
}

// 64 KiB: far above a 16384-bit PKCS#8 PEM (~12 KiB), far below anything a keychain chokes on.
export const MAX_SECRET_LENGTH = 65_536;

/**
 * The keychain account for a profile's secret: `${profileId}:${kind}`. Profile ids are UUIDs; a
 * colon or a control character in one would make accounts ambiguous, so it is refused.
 */
export function accountFor(profileId: string, kind: SecretKind): string {
  if (!/^[^\s:\p{Cc}]{1,128}$/u.test(profileId)) {
    throw new SecretStoreError(
      'A secret needs a profile id without spaces or colons (1 to 128 characters).',
    );
  }
  if (!(SECRET_KINDS as readonly string[]).includes(kind)) {
    throw new SecretStoreError(`Unknown secret kind; expected one of ${SECRET_KINDS.join(', ')}.`);
  }
  return `${profileId}:${kind}`;
}

export function checkSecretValue(value: string): void {
  if (typeof value !== 'string' || value.length === 0) {
    throw new SecretStoreError('An empty secret cannot be stored.');
  }
  if (value.length > MAX_SECRET_LENGTH) {
    throw new SecretStoreError(
      `A secret is at most ${MAX_SECRET_LENGTH} characters; this one is ${value.length}.`,
    );
  }
}
