// A key fingerprint as text: its canonical form and how a typed one is brought to it. No key
// parsing here (and no node-forge), so the stores can check fingerprints without loading it.

import { KeyError } from './errors';

/** `AB:CD:...`: 32 bytes, uppercase hex, colon-separated. */
export type Fingerprint = string;

const CANONICAL = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;

export function formatFingerprint(digest: Uint8Array): Fingerprint {
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/**
 * Brings a fingerprint someone typed or pasted (any case, with or without colons or spaces) to
 * the canonical form, so comparisons never fail on spelling.
 */
export function normalizeFingerprint(text: string): Fingerprint {
  const hex = text.replace(/[\s:]/g, '').toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) {
    throw new KeyError(
      'invalid-fingerprint',
      'A key fingerprint is 32 bytes of SHA-256 written as hex, like "AB:CD:…" (64 hex digits).',
    );
  }
  const canonical = hex.replace(/(..)(?!$)/g, '$1:');
  // The regex above cannot fail to produce this shape; the check documents the contract.
  if (!CANONICAL.test(canonical)) throw new KeyError('invalid-fingerprint', 'Bad fingerprint.');
  return canonical;
}
