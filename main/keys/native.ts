// Key material made with node:crypto alone, for the embedded sandbox's own key at start: the
// first start makes one, every start needs its public key. node-forge (what reads the keys a
// person imports, main/keys/import.ts) is large and slow to load, which a start need not wait
// for. The result is the same KeyMaterial as generateKeyPair's: PKCS#8 and SPKI PEM with LF,
// the PKCS#1 public key, and the SHA-256 fingerprint of the SPKI DER.

import { createHash, createPublicKey, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

import { formatFingerprint } from './fingerprint-text';
import type { KeyMaterial } from './material';

const generate = promisify(generateKeyPair);

/** A fresh RSA key pair, generated off the main thread (libuv's pool). */
export async function generateNativeKeyMaterial(bits: number): Promise<KeyMaterial> {
  const { privateKey } = await generate('rsa', {
    modulusLength: bits,
    publicExponent: 0x10001,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { ...publicKeyMaterial(privateKey), privateKeyPkcs8Pem: privateKey };
}

/** The public half of a private key PEM Paydesk stored itself (unencrypted PKCS#8). */
export function publicKeyMaterial(privateKeyPem: string): Omit<KeyMaterial, 'privateKeyPkcs8Pem'> {
  const publicKey = createPublicKey(privateKeyPem);
  const spkiDer = publicKey.export({ type: 'spki', format: 'der' });
  return {
    publicKeySpkiPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    publicKeyPkcs1Pem: publicKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    fingerprint: formatFingerprint(createHash('sha256').update(spkiDer).digest()),
    bits: publicKey.asymmetricKeyDetails?.modulusLength ?? 0,
  };
}
