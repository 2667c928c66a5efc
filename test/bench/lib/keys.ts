// RSA keys for the signing rows, made once per run (a 4096-bit key takes seconds).

import { generateKeyPairSync } from 'node:crypto';

const made = new Map<number, string>();

/** An unencrypted PKCS#8 PEM private key of `bits`; synchronous is fine in a bench's setup. */
export function rsaPrivateKeyPem(bits: number): string {
  let pem = made.get(bits);
  if (!pem) {
    pem = generateKeyPairSync('rsa', {
      modulusLength: bits,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    made.set(bits, pem);
  }
  return pem;
}
