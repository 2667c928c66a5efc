// The SHA-256 of the public key's SPKI DER, as colon-separated uppercase hex: what two people read
// to each other on the phone to confirm the operator holds the merchant's key. It equals
// `openssl pkey -pubin -in public_key.pem -outform DER | sha256sum`.

import { createHash } from 'node:crypto';

import forge from 'node-forge';

import { KeyError } from './errors';
import { readRsaPublicKey } from './pem';

/** `AB:CD:...`: 32 bytes, uppercase hex, colon-separated. */
export type Fingerprint = string;

const CANONICAL = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;

export function spkiDer(publicKey: forge.pki.rsa.PublicKey): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.publicKeyToAsn1(publicKey)).getBytes(), 'binary');
}

export function formatFingerprint(digest: Uint8Array): Fingerprint {
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

export function fingerprintOfKey(publicKey: forge.pki.rsa.PublicKey): Fingerprint {
  return formatFingerprint(createHash('sha256').update(spkiDer(publicKey)).digest());
}

/**
 * The fingerprint of an RSA public key in PEM, SPKI (`BEGIN PUBLIC KEY`, as in public_key.pem)
 * or PKCS#1 (`BEGIN RSA PUBLIC KEY`). The key is re-encoded as SPKI DER first, as openssl does,
 * so both forms of one key give the same fingerprint.
 */
export function fingerprintOf(publicKeyPem: string): Fingerprint {
  return fingerprintOfKey(readRsaPublicKey(publicKeyPem));
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
