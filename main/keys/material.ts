// What Paydesk keeps and shows of an RSA key pair, built the same way for a generated and an
// imported key, so both are stored and displayed identically.

import forge from 'node-forge';

import { KeyError } from './errors';
import { type Fingerprint, fingerprintOfKey } from './fingerprint';

export const MIN_RSA_BITS = 2048;
// Larger keys sign slowly on every request and nobody issues them; a bigger one is a mistake.
export const MAX_RSA_BITS = 16384;

export interface KeyMaterial {
  /** Unencrypted PKCS#8 PEM: for the SecretStore only, never shown or exported. */
  privateKeyPkcs8Pem: string;
  /** SPKI PEM (`BEGIN PUBLIC KEY`): the content of public_key.pem for the operator. */
  publicKeySpkiPem: string;
  /** PKCS#1 PEM (`BEGIN RSA PUBLIC KEY`), for tools that want that form. */
  publicKeyPkcs1Pem: string;
  fingerprint: Fingerprint;
  bits: number;
}

// forge writes PEM with CRLF; public_key.pem and OpenSSL use LF, and a file handed to support
// should look like the one their tools make.
const lf = (pem: string): string => pem.replace(/\r\n/g, '\n');

const big = (n: forge.jsbn.BigInteger): bigint => BigInt(`0x${n.toString(16)}`);

/**
 * A key whose numbers do not agree signs garbage the gateway rejects with a bare 403; checking
 * the RSA identities here (native BigInt, microseconds) turns that into a message at import.
 */
function assertConsistent(key: forge.pki.rsa.PrivateKey): void {
  const [n, e, d, p, q, dP, dQ, qInv] = [
    key.n,
    key.e,
    key.d,
    key.p,
    key.q,
    key.dP,
    key.dQ,
    key.qInv,
  ].map(big) as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint];
  const ok =
    p > 1n &&
    q > 1n &&
    e > 1n &&
    n === p * q &&
    (e * d) % (p - 1n) === 1n &&
    (e * d) % (q - 1n) === 1n &&
    dP === d % (p - 1n) &&
    dQ === d % (q - 1n) &&
    (qInv * q) % p === 1n;
  if (!ok) {
    throw new KeyError(
      'damaged',
      'The key is damaged: its numbers do not belong together, so its signatures would be refused. Import an intact copy of the key.',
    );
  }
}

export function keyMaterial(key: forge.pki.rsa.PrivateKey): KeyMaterial {
  const bits = key.n.bitLength();
  if (bits < MIN_RSA_BITS) {
    throw new KeyError(
      'too-small',
      `This RSA key has ${bits} bits; the gateway requires at least ${MIN_RSA_BITS}. Generate a new 4096-bit key in Keys and send its public_key.pem to the operator's support.`,
    );
  }
  if (bits > MAX_RSA_BITS) {
    throw new KeyError(
      'too-large',
      `This RSA key has ${bits} bits; Paydesk accepts up to ${MAX_RSA_BITS}. Use a 2048, 3072 or 4096-bit key.`,
    );
  }
  assertConsistent(key);
  const publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  return {
    privateKeyPkcs8Pem: lf(
      forge.pki.privateKeyInfoToPem(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key))),
    ),
    publicKeySpkiPem: lf(forge.pki.publicKeyToPem(publicKey)),
    publicKeyPkcs1Pem: lf(forge.pki.publicKeyToRSAPublicKeyPem(publicKey)),
    fingerprint: fingerprintOfKey(publicKey),
    bits,
  };
}
