// The SHA-256 of the public key's SPKI DER, as colon-separated uppercase hex: what two people read
// to each other on the phone to confirm the operator holds the merchant's key. It equals
// `openssl pkey -pubin -in public_key.pem -outform DER | sha256sum`.

import { createHash } from 'node:crypto';

import forge from 'node-forge';

import { type Fingerprint, formatFingerprint } from './fingerprint-text';
import { readRsaPublicKey } from './pem';

export function spkiDer(publicKey: forge.pki.rsa.PublicKey): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.publicKeyToAsn1(publicKey)).getBytes(), 'binary');
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

export { type Fingerprint, formatFingerprint, normalizeFingerprint } from './fingerprint-text';
